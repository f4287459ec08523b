import { SEVERITIES, type Severity } from '#lib/shared/severity';
import type { Digest, NotificationType, NotifiedAlarm } from '../../types';

/*
 * What a PagerDuty channel sends (shared/vendors.md "Incident tools", Events API v2): one event per
 * alarm and transition, the alarm's id as `dedup_key`, so PagerDuty's trigger, acknowledge and
 * resolve of one incident are ours of one alarm. Pure: lib/notify/pagerduty/send.ts posts them.
 */

/** Where events go unless PAGERDUTY_EVENTS_URL says otherwise (the fake under npm start). */
export const PAGERDUTY_EVENTS_URL = 'https://events.pagerduty.com/v2/enqueue';

/** An integration key as PagerDuty issues it (32 characters), or the masked form every answer but create shows. */
export const PAGERDUTY_ROUTING_KEY_PATTERN = '^([A-Za-z0-9]{20,64}|[*]{3}[A-Za-z0-9]{4})$';
export const PAGERDUTY_ROUTING_KEY_RULE =
  'the integration (routing) key of an Events API v2 integration: 20 to 64 letters or digits; the masked key a GET answered ("***" and its last 4) keeps the stored one';

const MASK = '***';
/** The routing key as answered after create: its last 4 characters, enough to tell keys apart. */
export const maskedRoutingKey = (key: string): string => `${MASK}${key.slice(-4)}`;
export const isMaskedRoutingKey = (key: string): boolean => key.startsWith(MASK);

/** PagerDuty's limits on a dedup key and a summary. */
export const DEDUP_KEY_MAX = 255;
export const SUMMARY_MAX = 1024;

/** Our severities (1 worst) on PagerDuty's four: Critical critical, Major error, Minor warning, Info info. */
export const PAGERDUTY_SEVERITY: Record<Severity, 'critical' | 'error' | 'warning' | 'info'> = { 1: 'critical', 2: 'error', 3: 'warning', 4: 'info' };

export type EventAction = 'trigger' | 'acknowledge' | 'resolve';

/**
 * The action a notification is to PagerDuty: raised triggers (also when a maintenance window that
 * held it closes), acknowledged acknowledges, cleared resolves. A device marked flapping and an
 * escalation step reached trigger again with the same dedup key: PagerDuty adds a trigger on an
 * open incident to that incident (one update, not a new incident), and opens it on a service an
 * escalation step names for the first time. Reminders, suppression notices and reports are not
 * incident changes: undefined, nothing is sent.
 */
export const actionOf = (type: NotificationType): EventAction | undefined => {
  if (type === 'alarms.raised' || type === 'alarms.flapping' || type === 'alarms.escalated') return 'trigger';
  if (type === 'alarms.acknowledged') return 'acknowledge';
  return type === 'alarms.cleared' || type === 'test' ? 'resolve' : undefined;
};

/** What a trigger's summary leads with: why this trigger was sent when it is not the alarm's raise. */
const leadOf = (digest: Digest): string =>
  digest.type === 'alarms.flapping' ? 'Flapping (held open until quiet): ' : digest.type === 'alarms.escalated' ? `Escalated, step ${digest.step ?? 1}, still unacknowledged: ` : '';

/** The notification types a PagerDuty channel is sent: the rest are recorded as suppressed for it. */
export const takesType = (type: NotificationType): boolean => actionOf(type) !== undefined;

export interface PagerDutyEvent {
  routing_key: string;
  event_action: EventAction;
  dedup_key: string;
  payload?: {
    summary: string;
    source: string;
    severity: 'critical' | 'error' | 'warning' | 'info';
    timestamp: string;
    component: string;
    group: string;
    class: string;
    custom_details: Record<string, string>;
  };
  links?: { href: string; text: string }[];
  client: string;
}

const CLIENT = 'device-monitoring';

const cut = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);

/** ALARM_LINK_URL with `{id}` and `{watcherId}` filled in, URL-encoded; none when unset. */
export const alarmLink = (template: string | undefined, alarm: NotifiedAlarm, watcherId: string): string | undefined =>
  template ? template.replaceAll('{id}', encodeURIComponent(alarm.id)).replaceAll('{watcherId}', encodeURIComponent(watcherId)) : undefined;

/**
 * The event of one alarm in a PagerDuty delivery's digest (which holds one alarm: see plan.ts). A
 * trigger carries the payload (summary, severity mapped, the device and its place as
 * custom_details) and the link; acknowledge and resolve only the dedup key, as PagerDuty takes them.
 * A channel test resolves a key of its own: PagerDuty answers 202 for a valid routing key and nobody is paged.
 */
export const eventOf = (digest: Digest, routingKey: string, linkTemplate?: string): PagerDutyEvent | undefined => {
  const action = actionOf(digest.type);
  if (!action) return undefined;
  if (digest.type === 'test') return { routing_key: routingKey, event_action: 'resolve', dedup_key: `device-monitoring-test-${digest.id}`, client: CLIENT };
  const alarm = digest.alarms[0];
  const watcher = digest.watcher;
  if (!alarm || !watcher) return undefined;
  const dedup_key = cut(alarm.id, DEDUP_KEY_MAX);
  if (action !== 'trigger') return { routing_key: routingKey, event_action: action, dedup_key, client: CLIENT };
  const what = watcher.type.trim() || 'in alarm';
  const summary = `${leadOf(digest)}[${SEVERITIES[watcher.severity]}] ${alarm.devicesn} ${what} in ${alarm.region} / ${alarm.location} / ${alarm.room}${watcher.description ? ` (${watcher.description})` : ''}`;
  const link = alarmLink(linkTemplate, alarm, watcher.id);
  return {
    routing_key: routingKey,
    event_action: 'trigger',
    dedup_key,
    payload: {
      summary: cut(summary, SUMMARY_MAX),
      source: alarm.devicesn,
      severity: PAGERDUTY_SEVERITY[alarm.severity],
      timestamp: alarm.raisedAt,
      component: alarm.deviceid,
      group: `${alarm.region} / ${alarm.location}`,
      class: what,
      custom_details: {
        alarm: alarm.id,
        watcher: watcher.id,
        device: alarm.devicesn,
        deviceId: alarm.deviceid,
        room: alarm.room,
        location: alarm.location,
        region: alarm.region,
        raisedAt: alarm.raisedAt,
      },
    },
    ...(link ? { links: [{ href: link, text: 'The alarm in device-monitoring' }] } : {}),
    client: CLIENT,
  };
};
