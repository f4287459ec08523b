import type { Place, Severity } from '#lib/devices/types';

/** Who an alarm's mails go to, as the watcher said when the alarm was raised. */
export interface Recipients {
  sendEmail: boolean;
  emails: string[];
  /** The watcher's notification channels (issue 16), when it has any. */
  channelIds?: string[];
}

/** One alarm: a watcher's condition holding for one device (at most one open per pair). */
export interface Alarm extends Place {
  watcherId: string;
  devicesn: string;
  deviceid: string;
  severity: Severity;
  raisedAt: string;
  /** The watcher's description, when it has one. */
  description?: string;
}

/** An open alarm as stored: also the recipients, so a deleted watcher's alarms still mail on clear. */
export interface OpenAlarm extends Alarm {
  notify: Recipients;
}

export type ClearReason = 'resolved' | 'watcher inactive' | 'watcher deleted' | 'device vanished';

export type Transition = 'raised' | 'cleared';

/** One mail of the outbox; `id` is fixed by the transition, so delivering twice is detectable. */
export interface Mail {
  id: string;
  to: string[];
  subject: string;
  text: string;
  /** The same content as HTML (digests); the mail then has both parts. */
  html?: string;
}

/** `watcherId:devicesn`: stable for the pair (watcher ids hold no `:`). */
export const alarmId = (alarm: Pick<Alarm, 'watcherId' | 'devicesn'>): string => `${alarm.watcherId}:${alarm.devicesn}`;
