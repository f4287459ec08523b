import { createHash } from 'node:crypto';
import { roomKey } from '#lib/devices/types';
import { reportSubject } from '#lib/reports/pure/render';
import { durationText } from '#lib/shared/duration';
import { SEVERITIES } from '#lib/shared/severity';
import { LISTED, type Digest, type NotificationType, type NotifiedAlarm, type NotifiedWatcher } from '../types';

/** A short stable id from its parts: 32 hex characters of their SHA-256. */
export const stableId = (...parts: string[]): string => createHash('sha256').update(parts.join('\u0000')).digest('hex').slice(0, 32);

/**
 * The digest of one watcher, type and run (or repeat slot): the same inputs give the same id.
 * `carrying` (a run's notices) adds what it carries: a notice that reached the notifier late
 * makes a digest of its own instead of meeting the id of one already stored without it.
 */
export const digestId = (watcherId: string, type: NotificationType, at: string, carrying?: string): string =>
  carrying === undefined ? stableId('digest', watcherId, type, at) : stableId('digest', watcherId, type, at, carrying);

const byPlace = (a: NotifiedAlarm, b: NotifiedAlarm): number => {
  const ka = `${roomKey(a)}\u0000${a.devicesn}`;
  const kb = `${roomKey(b)}\u0000${b.devicesn}`;
  return ka < kb ? -1 : ka > kb ? 1 : 0;
};

const distinct = (values: readonly string[]) => new Set(values).size;

/** Where the alarms are, as narrow as they all agree: one room, one location, one region, or a count. */
const placeLabelOf = (alarms: readonly NotifiedAlarm[]): string => {
  const first = alarms[0];
  if (!first) return 'no rooms';
  const regions = distinct(alarms.map((a) => a.region));
  if (regions > 1) return `${regions} regions`;
  const locations = distinct(alarms.map((a) => a.location));
  if (locations > 1) return first.region;
  const rooms = distinct(alarms.map((a) => a.room));
  return rooms > 1 ? `${first.region} / ${first.location}` : `${first.region} / ${first.location} / ${first.room}`;
};

/**
 * One digest over every alarm of a watcher in one run: sorted by room then serial number,
 * the first LISTED kept, the others counted. Pure; `alarms` may hold the same alarm twice
 * (a run resumed after a crash), it is listed once.
 */
export const buildDigest = (input: {
  type: NotificationType;
  at: string;
  watcher: NotifiedWatcher;
  alarms: readonly NotifiedAlarm[];
  /** What fixes the id beside watcher, type and run (the notices carried), if anything. */
  carrying?: string;
  /** The parent problem an `alarms.inhibited` digest tells of. */
  parent?: string;
}): Digest => {
  const unique = [...new Map(input.alarms.map((a) => [a.id, a])).values()].sort(byPlace);
  return {
    type: input.type,
    id: digestId(input.watcher.id, input.type, input.at, input.carrying),
    at: input.at,
    watcher: input.watcher,
    alarms: unique.slice(0, LISTED),
    total: unique.length,
    rooms: distinct(unique.map((a) => roomKey(a))),
    scope: placeLabelOf(unique),
    ...(input.parent === undefined ? {} : { parent: input.parent }),
  };
};

/** The digest a channel test sends: no watcher, no alarms. */
export const testDigest = (id: string, at: string): Digest => ({ type: 'test', id, at, alarms: [], total: 0, rooms: 0, scope: 'no rooms' });

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

const LEAD: Record<NotificationType, string> = {
  'alarms.raised': '',
  'alarms.cleared': 'Cleared: ',
  'alarms.repeat': 'Still open: ',
  'alarms.inhibited': 'Suppressed: ',
  'alarms.acknowledged': 'Acknowledged: ',
  test: '',
  report: '',
};

/** `[Major] 12 devices offline in EMEA / London (3 rooms)`; the room count only when there are several. */
export const subjectOf = (digest: Digest): string => {
  if (digest.report) return reportSubject(digest.report);
  if (digest.type === 'test' || !digest.watcher) return '[Test] Notification channel test from device-monitoring';
  const level = SEVERITIES[digest.watcher.severity];
  const what = digest.watcher.type.trim() || 'in alarm';
  const rooms = digest.rooms > 1 ? ` (${plural(digest.rooms, 'room')})` : '';
  return `[${level}] ${LEAD[digest.type]}${plural(digest.total, 'device')} ${what} in ${digest.scope}${rooms}`;
};

/** How long an alarm was down: "3h 5m", "42s". */
export const durationOf = (from: string, to: string): string => durationText((Date.parse(to) - Date.parse(from)) / 1000);

/** One line about one alarm: its device and, once cleared, how long it was down. */
export const alarmLine = (alarm: NotifiedAlarm): string =>
  alarm.clearedAt
    ? `${alarm.devicesn} (${alarm.deviceid}) down ${durationOf(alarm.raisedAt, alarm.clearedAt)}, ${alarm.raisedAt} to ${alarm.clearedAt}${alarm.reason ? ` (${alarm.reason})` : ''}`
    : `${alarm.devicesn} (${alarm.deviceid}) since ${alarm.raisedAt}`;

/** The listed alarms grouped by room, rooms in order. */
export const byRoom = (alarms: readonly NotifiedAlarm[]): { room: string; alarms: NotifiedAlarm[] }[] => {
  const groups = new Map<string, { room: string; alarms: NotifiedAlarm[] }>();
  for (const alarm of alarms) {
    const key = roomKey(alarm);
    const group = groups.get(key) ?? { room: `${alarm.region} / ${alarm.location} / ${alarm.room}`, alarms: [] };
    group.alarms.push(alarm);
    groups.set(key, group);
  }
  return [...groups.values()];
};

/** "and N more" when the digest lists fewer alarms than it counts. */
export const moreLine = (digest: Digest): string | undefined =>
  digest.total > digest.alarms.length ? `and ${digest.total - digest.alarms.length} more` : undefined;

/** The opening sentence of a digest. */
export const introOf = (digest: Digest): string => {
  if (digest.type === 'test' || !digest.watcher) return 'This is a test notification: the channel is set up and reachable.';
  const watcher = `watcher "${digest.watcher.description || digest.watcher.id}" (${SEVERITIES[digest.watcher.severity]})`;
  const count = plural(digest.total, 'alarm');
  if (digest.type === 'alarms.cleared') return `${count} of ${watcher} cleared in ${digest.scope}.`;
  if (digest.type === 'alarms.repeat') return `${count} of ${watcher} still open in ${digest.scope}.`;
  if (digest.type === 'alarms.inhibited') return `${digest.parent ?? digest.scope}; ${count} of ${watcher} suppressed.`;
  return `${count} of ${watcher} raised in ${digest.scope}.`;
};
