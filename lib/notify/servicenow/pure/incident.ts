import { createHash } from 'node:crypto';
import { SEVERITIES, type Severity } from '#lib/shared/severity';
import type { Digest, NotifiedAlarm } from '../../types';

/*
 * What a ServiceNow channel makes of our alarms: one incident per alarm, found again by
 * `correlation_id` (the alarm id) and `correlation_display` (which of the pair's alarms: the
 * time it was raised), so a retry, a second engine run or a delivery whose answer was lost never
 * opens a second incident. Pure: the requests are made in ../deliver.ts.
 */

/** ServiceNow's incident states the channel sets: New (opened), In Progress (acknowledged), Resolved (cleared). */
export const STATE = { new: 1, inProgress: 2, resolved: 6 } as const;

/** `correlation_id` and `correlation_display` are String(100) on the incident table: longer values are cut, and would no longer be found. */
const FIELD_CHARS = 100;

/**
 * Urgency and impact (1 high .. 3 low) of each of our severities; ServiceNow's default priority
 * matrix makes them priority 1 (Critical), 2 (Major), 3 (Minor) and 5 (Info).
 */
export const URGENCY_IMPACT: Record<Severity, { urgency: 1 | 2 | 3; impact: 1 | 2 | 3 }> = {
  1: { urgency: 1, impact: 1 },
  2: { urgency: 1, impact: 2 },
  3: { urgency: 2, impact: 2 },
  4: { urgency: 3, impact: 3 },
};

/** The close code of a resolved incident: the device recovered (our alarm cleared). */
export const CLOSE_CODE = 'Solved (Permanently)';

/**
 * The incident's `correlation_id`: the alarm id, or, when it is longer than the field holds or
 * carries `^` (the separator of ServiceNow's encoded queries), `sha256:` and a digest of it.
 */
export const correlationId = (alarmId: string): string =>
  alarmId.length <= FIELD_CHARS && !alarmId.includes('^') ? alarmId : `sha256:${createHash('sha256').update(alarmId).digest('hex').slice(0, 64)}`;

/** The incident's `correlation_display`: which alarm of the device and watcher (each outage is an incident of its own). */
export const correlationDisplay = (alarm: Pick<NotifiedAlarm, 'raisedAt'>): string => `device-monitoring alarm raised ${alarm.raisedAt}`;

/** The encoded query that finds the alarm's incident. */
export const lookupQuery = (alarm: Pick<NotifiedAlarm, 'id' | 'raisedAt'>): string => `correlation_id=${correlationId(alarm.id)}^correlation_display=${correlationDisplay(alarm)}`;

const cut = (text: string, chars: number) => (text.length <= chars ? text : `${text.slice(0, chars - 1)}…`);

const where = (alarm: NotifiedAlarm) => [alarm.room, alarm.location, alarm.region].filter(Boolean).join(', ');

/** The fields of a new incident for one alarm of a digest (`watcher` absent only for a channel test). */
export const newIncident = (alarm: NotifiedAlarm, watcher: Digest['watcher']) => {
  const what = watcher?.description || watcher?.type || 'alarm';
  return {
    short_description: cut(`${SEVERITIES[alarm.severity]}: ${what}: ${alarm.devicesn} in ${where(alarm)}`, 160),
    description: [
      `Device ${alarm.devicesn} (id ${alarm.deviceid}) raised an alarm at ${alarm.raisedAt}.`,
      `Watcher: ${what}${watcher ? ` (${watcher.id}, type ${watcher.type})` : ''}.`,
      `Room: ${alarm.room}; location: ${alarm.location}; region: ${alarm.region}.`,
      `Severity: ${SEVERITIES[alarm.severity]} (${alarm.severity}).`,
      `Alarm id: ${alarm.id}.`,
    ].join('\n'),
    ...URGENCY_IMPACT[alarm.severity],
    correlation_id: correlationId(alarm.id),
    correlation_display: correlationDisplay(alarm),
  };
};

/** The work note that moves an incident to In Progress: who acknowledged the alarm, when, and why. */
export const acknowledgedNote = (alarm: NotifiedAlarm): string =>
  `Acknowledged in device monitoring by ${alarm.acknowledgedBy ?? 'an unnamed user'}${alarm.acknowledgedAt ? ` at ${alarm.acknowledgedAt}` : ''}${alarm.ackComment ? `: ${alarm.ackComment}` : '.'}`;

/** The close notes of a resolved incident: when and why the alarm cleared. */
export const closeNotes = (alarm: NotifiedAlarm): string =>
  `Device ${alarm.devicesn} recovered: the alarm cleared at ${alarm.clearedAt ?? 'an unrecorded time'} (${alarm.reason ?? 'resolved'}).`;

/** What one alarm of a digest asks of its incident: the state it must reach at least, and the fields that go with it. */
export type IncidentStep =
  | { state: typeof STATE.new }
  | { state: typeof STATE.inProgress; work_notes: string }
  | { state: typeof STATE.resolved; close_code: string; close_notes: string }
  /** A work note on the open incident, its state left as it is (a device marked flapping, an escalation step reached). */
  | { note: string };

/** The step of a digest type, or undefined where the incident does not change (repeats, inhibition notices, reports). */
export const stepOf = (type: Digest['type'], alarm: NotifiedAlarm, step?: number): IncidentStep | undefined => {
  if (type === 'alarms.flapping') return { note: `Device ${alarm.devicesn} is flapping: its alarm is held open until the device stays quiet.` };
  if (type === 'alarms.escalated') return { note: `Escalated in device monitoring: step ${step ?? 1} reached, the alarm still unacknowledged.` };
  if (type === 'alarms.raised') return { state: STATE.new };
  if (type === 'alarms.acknowledged') return { state: STATE.inProgress, work_notes: acknowledgedNote(alarm) };
  if (type === 'alarms.cleared') return { state: STATE.resolved, close_code: CLOSE_CODE, close_notes: closeNotes(alarm) };
  return undefined;
};

/**
 * What to send for one alarm, given the incident found (its state) or none: an incident is only
 * ever moved forward (New, In Progress, Resolved), so steps that arrive late or twice change
 * nothing; a missing one is opened, already at the step's state (a clear whose raise is still
 * being retried still leaves one incident, resolved).
 */
export const requestFor = (
  step: IncidentStep,
  found: { sys_id: string; state: number } | undefined,
  alarm: NotifiedAlarm,
  watcher: Digest['watcher'],
): { method: 'POST'; body: Record<string, unknown> } | { method: 'PATCH'; sysId: string; body: Record<string, unknown> } | undefined => {
  if ('note' in step) {
    // a note opens the incident when none is found (an escalation step naming this instance first), never reopens a resolved one
    if (!found) return { method: 'POST', body: { ...newIncident(alarm, watcher), state: STATE.new, work_notes: step.note } };
    return found.state >= STATE.resolved ? undefined : { method: 'PATCH', sysId: found.sys_id, body: { work_notes: step.note } };
  }
  if (!found) return { method: 'POST', body: { ...newIncident(alarm, watcher), ...step } };
  if (found.state >= step.state) return undefined;
  return { method: 'PATCH', sysId: found.sys_id, body: { ...step } };
};
