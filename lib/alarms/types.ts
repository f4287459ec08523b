import type { Place, Severity } from '#lib/devices/types';
import type { InhibitedBy } from '#lib/watchers/types';
import { utf8Bytes } from '#lib/shared/sizes';

/** Who an alarm's mails go to, as the watcher said when the alarm was raised. */
export interface Recipients {
  sendEmail: boolean;
  emails: string[];
  /** The watcher's notification channels (webhooks, e-mail lists), told besides its e-mails, when it has any. */
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

/**
 * `pending`: the condition holds but not yet for the watcher's `pendingSeconds` (no mail, not in
 * room status); `firing`: the alarm is raised.
 */
export type AlarmState = 'pending' | 'firing';

/** Who acknowledged an open alarm, when, and why. */
export interface Acknowledgement {
  acknowledgedAt: string;
  /** The user of the bearer token sent with the acknowledgement, else `api-key`. */
  acknowledgedBy: string;
  ackComment?: string;
  /** When the acknowledgement lapses if the alarm still fires (docs/guide/rules/alarms.md "An acknowledgement ends with its alarm, or at an optional ackUntil of at most 30 days"). */
  ackUntil?: string;
}

/** One acknowledgement or its removal, as the alarm's history records it (who, when, and what was said). */
export interface AckEvent {
  /** `note`: something said about the alarm that changes nothing (an incident resolved in PagerDuty while the device still fails). */
  action: 'ack' | 'unack' | 'note';
  at: string;
  /** The principal's username (`api-key` without a bearer token); `system` when an `ackUntil` lapsed. */
  by: string;
  comment?: string;
  ackUntil?: string;
  /** Set on the `unack` of an acknowledgement whose `ackUntil` passed while the alarm still fired. */
  lapsed?: true;
}

/** Where one transition's notification went: the recipients (empty when none were asked for), or `suppressed` by a silence. */
export type NotificationOutcome = string[] | 'suppressed';

/** The notifications of an alarm's transitions so far. */
export interface Notified {
  raised?: NotificationOutcome;
  cleared?: NotificationOutcome;
  flapping?: NotificationOutcome;
}

/**
 * An open (pending or firing) alarm as stored: also the recipients, so a deleted watcher's
 * alarms still mail on clear. A pending alarm's `raisedAt` is `pendingSince`; firing sets it to
 * the moment it fired.
 */
export interface OpenAlarm extends Alarm {
  state: AlarmState;
  notify: Recipients;
  /** When the condition started to hold (pending alarms, and firing ones that were pending). */
  pendingSince?: string;
  /** When a pending alarm fires if its condition still holds. */
  firesAt?: string;
  acknowledgement?: Acknowledgement;
  /** The acknowledgements and their removals of this alarm so far (not of earlier alarms of the pair). */
  ackEvents?: AckEvent[];
  notified?: Notified;
  /** Set while a parent condition suppresses it (docs/guide/rules/alarms.md "A suppressed alarm is marked `suppressedBy` when it is raised, judged from the rollups"): nothing about it is sent. */
  suppressedBy?: SuppressedBy;
  /** The last escalation step the alarm reached (1-based; absent: none yet). */
  escalationStep?: number;
  /** The steps reached and when, oldest first. */
  escalations?: EscalationEvent[];
  /** Escalation counts from here: the end of the last hold (silence, maintenance, parent condition); absent: from `raisedAt`. */
  escalationFrom?: string;
  /** Set while a hold stops escalation: the first run that finds the hold ended sets `escalationFrom`. */
  escalationHeld?: true;
  /** When the pair's alarms fired and cleared lately (within the watcher's flapping window): carried from one alarm of the pair to the next. */
  flips?: string[];
  /** Set while the device flaps: the alarm stays open instead of clearing and firing again. */
  flappingSince?: string;
  /** A flapping alarm whose condition stopped holding: since when (it clears after the watcher's `quietMinutes`). */
  quietSince?: string;
}

/** One escalation step reached, as the alarm and its history record it. */
export interface EscalationEvent {
  step: number;
  at: string;
}

/**
 * The parent condition an alarm was raised under, where it holds (the room, or the location
 * without `room`) and since when (the start of that parent episode).
 */
export type SuppressedBy = InhibitedBy & { region: string; location: string; room?: string; since: string };

export type ClearReason = 'resolved' | 'watcher inactive' | 'watcher deleted' | 'device vanished';

/** `flapping`: a firing alarm held open because its device flaps (told once, as a transition of its own). */
export type Transition = 'raised' | 'cleared' | 'flapping';

/** The (watcher, device) pair that identifies an alarm. */
export type AlarmKey = Pick<Alarm, 'watcherId' | 'devicesn'>;

/** `watcherId:devicesn`: stable for the pair (watcher ids hold no `:`). */
export const alarmId = (alarm: AlarmKey): string => `${alarm.watcherId}:${alarm.devicesn}`;

/**
 * DynamoDB refuses a sort key over 1,024 UTF-8 bytes (a read with one is a ValidationException,
 * not a miss); an alarm's is `DEVICE#<devicesn>`, so a longer serial names no stored alarm. Watcher
 * ids are UUIDs: one over this length names no watcher either.
 */
const MAX_KEY_PART_BYTES = 1024 - 'DEVICE#'.length;

/** The pair of an alarm id `watcherId:devicesn` (split at the first `:`); undefined when it names no alarm. */
export const parseAlarmId = (id: string): Pick<Alarm, 'watcherId' | 'devicesn'> | undefined => {
  const at = id.indexOf(':');
  if (at <= 0 || at === id.length - 1) return undefined;
  const pair = { watcherId: id.slice(0, at), devicesn: id.slice(at + 1) };
  if (utf8Bytes(pair.devicesn) > MAX_KEY_PART_BYTES || utf8Bytes(pair.watcherId) > MAX_KEY_PART_BYTES) return undefined;
  return pair;
};
