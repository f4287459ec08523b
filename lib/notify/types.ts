import type { Place, Severity } from '#lib/devices/types';
import type { FleetReport } from '#lib/reports/types';

/** What a notification tells: alarms that fired, recovered, are still open, suppressed by a parent problem or acknowledged (incident channels only), a channel test, or a scheduled fleet report. */
export const NOTIFICATION_TYPES = ['alarms.raised', 'alarms.cleared', 'alarms.repeat', 'alarms.inhibited', 'alarms.acknowledged', 'test', 'report'] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];

/** One alarm as a notification lists it. */
export interface NotifiedAlarm extends Place {
  id: string;
  devicesn: string;
  deviceid: string;
  severity: Severity;
  raisedAt: string;
  clearedAt?: string;
  /** Why a cleared alarm cleared ("resolved", "device vanished", ...). */
  reason?: string;
  /** An acknowledged alarm: who acknowledged it, when, and their comment. */
  acknowledgedBy?: string;
  acknowledgedAt?: string;
  ackComment?: string;
}

/** The watcher a digest speaks for (absent for a channel test). */
export interface NotifiedWatcher {
  id: string;
  description: string;
  severity: Severity;
  /** The watcher's `type` ("offline"): what its alarms mean, used in subjects. */
  type: string;
}

/**
 * One digest: every alarm of one watcher that one run raised (or cleared, or re-notified).
 * Only the first `LISTED` alarms are kept, sorted by room; `total` and `rooms` count them all.
 */
export interface Digest {
  type: NotificationType;
  /** Deterministic: the same watcher, type and run always make the same id. */
  id: string;
  /** The run (or repeat slot) the digest belongs to, ISO 8601. */
  at: string;
  watcher?: NotifiedWatcher;
  alarms: NotifiedAlarm[];
  total: number;
  rooms: number;
  /** Where the alarms are: "EMEA / London", "EMEA", "3 regions", or one room's full name. */
  scope: string;
  /** `alarms.inhibited`: the parent problem that suppresses the alarms ("location EMEA / London: 37% of devices offline"). */
  parent?: string;
  /** A `report` digest carries a fleet report instead of alarms, so reports reach channels the way alarms do (lib/reports). */
  report?: FleetReport;
}


/** The number of alarms a digest lists; the rest are counted ("and N more"). */
export const LISTED = 50;

export type WebhookFormat = 'json' | 'slack' | 'teams';
export const WEBHOOK_FORMATS = ['json', 'slack', 'teams'] as const satisfies readonly WebhookFormat[];

type DeliveryStatus = 'pending' | 'delivered' | 'retrying' | 'failed' | 'suppressed';

/** Who a watcher's notifications go to: its own addresses (when `sendEmail`) and its channels. */
export interface Audience {
  sendEmail: boolean;
  emails: string[];
  channelIds: string[];
}

/**
 * One alarm transition waiting to be told (outbox pattern): written on the alarm item in the
 * same single-item write as the transition, dropped once the digest that carries it is stored.
 * `id` is fixed by the transition; `at` is the run that made it, which fixes its digest.
 */
export interface Notice {
  id: string;
  type: 'alarms.raised' | 'alarms.cleared' | 'alarms.acknowledged';
  at: string;
  alarm: NotifiedAlarm;
  watcher: NotifiedWatcher;
  audience: Audience;
  reason?: string;
  /** A silence covered the alarm at the transition: its deliveries are stored as suppressed, never sent. */
  silenced?: boolean;
}

/** Where one delivery goes: the watcher's own addresses, or one notification channel. */
export type Target = { kind: 'email'; to: string[] } | { kind: 'channel'; channelId: string };

/** A delivery to store: one digest to one target. Its id is fixed by digest and target. */
export interface DeliveryDraft {
  id: string;
  digest: Digest;
  target: Target;
  /** `suppressed` when silences covered every alarm of the digest: recorded, never sent. */
  status: 'pending' | 'suppressed';
}

/** A ServiceNow channel as clients send it: basic auth (`username`, `password`) or OAuth client credentials (`clientId`, `clientSecret`). */
export interface ServiceNowInput {
  name: string;
  type: 'servicenow';
  instanceUrl: string;
  username?: string;
  password?: string;
  clientId?: string;
  clientSecret?: string;
}

/** A notification channel as clients send it (POST and PUT /channels). */
export type ChannelInput =
  | { name: string; type: 'email'; emails: string[] }
  | { name: string; type: 'webhook'; url: string; format?: WebhookFormat }
  | ServiceNowInput;

/** A ServiceNow channel as answered: its password or client secret only ever as the mask. */
export type ServiceNowChannel = { type: 'servicenow'; instanceUrl: string } & (
  | { auth: 'basic'; username: string; password: string }
  | { auth: 'oauth'; clientId: string; clientSecret: string }
);

/** A channel as the API answers it: never with its signing secret or credentials. */
export type Channel = { id: string; name: string; createdAt: string; updatedAt: string } & (
  | { type: 'email'; emails: string[] }
  | { type: 'webhook'; url: string; format: WebhookFormat }
  | ServiceNowChannel
);

/** One delivery as the delivery log answers it. */
export interface DeliveryView {
  deliveryId: string;
  type: NotificationType;
  at: string;
  attempts: number;
  status: DeliveryStatus;
  lastResponseStatus?: number;
  nextAttemptAt?: string;
}

/** A stored delivery: its view, what it carries and where it goes. */
export interface StoredDelivery extends DeliveryView {
  digest: Digest;
  target: Target;
  firstAttemptAt?: string;
}
