import type { Place } from '#lib/devices/types';
import { alarmId, type AckEvent, type Acknowledgement, type EscalationEvent, type Alarm, type ClearReason, type Notified, type OpenAlarm } from '../types';

/** One cleared alarm as GET /alarms/history answers it. */
export interface HistoryRecord extends Alarm, Partial<Acknowledgement> {
  id: string;
  clearedAt: string;
  reason: ClearReason;
  durationSeconds: number;
  /** Where the raise and the clear notifications went, or `suppressed` by a silence. */
  notified: Notified;
  /** Its acknowledgements and their removals, oldest first (absent: none). */
  acknowledgements?: AckEvent[];
  /** The last escalation step it reached, and each step with its time. */
  escalationStep?: number;
  escalations?: EscalationEvent[];
  /** Set when it cleared after flapping: since when it flapped. */
  flappingSince?: string;
}

/** The history record of a cleared alarm: how long it fired, who acknowledged it, who was told. */
export const historyRecord = (alarm: OpenAlarm & { clearedAt: string; clearReason: ClearReason }): HistoryRecord => {
  const record: HistoryRecord = {
    id: alarmId(alarm),
    watcherId: alarm.watcherId,
    severity: alarm.severity,
    devicesn: alarm.devicesn,
    deviceid: alarm.deviceid,
    region: alarm.region,
    location: alarm.location,
    room: alarm.room,
    raisedAt: alarm.raisedAt,
    clearedAt: alarm.clearedAt,
    reason: alarm.clearReason,
    durationSeconds: Math.max(0, Math.round((Date.parse(alarm.clearedAt) - Date.parse(alarm.raisedAt)) / 1000)),
    notified: { raised: alarm.notified?.raised ?? [], cleared: alarm.notified?.cleared ?? [] },
    // an acknowledgement whose ackUntil passed before the clear had lapsed (docs/guide/rules/alarms.md "An acknowledgement ends with its alarm, or at an optional ackUntil of at most 30 days")
    ...(alarm.acknowledgement?.ackUntil !== undefined && alarm.acknowledgement.ackUntil <= alarm.clearedAt ? {} : alarm.acknowledgement),
  };
  if (alarm.description) record.description = alarm.description;
  if (alarm.ackEvents?.length) record.acknowledgements = alarm.ackEvents;
  if (alarm.escalationStep !== undefined) record.escalationStep = alarm.escalationStep;
  if (alarm.escalations?.length) record.escalations = alarm.escalations;
  if (alarm.flappingSince !== undefined) record.flappingSince = alarm.flappingSince;
  return record;
};

/** A history query: at most one of the place keys narrows first (see lib/alarms/repository/alarmHistory). */
export interface HistoryFilter extends Partial<Place> {
  devicesn?: string;
  watcherId?: string;
  /** ISO 8601 bounds on `clearedAt`, inclusive. */
  from: string;
  to: string;
}

/** GET /alarms/history query parameters, as validated strings. */
export interface HistoryQuery {
  region?: string;
  location?: string;
  room?: string;
  devicesn?: string;
  watcherId?: string;
  from?: string;
  to?: string;
  limit?: string;
  cursor?: string;
}

const DAY_MS = 24 * 60 * 60 * 1000;
const narrowing = (value: string | undefined) => (value === undefined || value === 'all' ? undefined : value);

/**
 * The filter of a history query. `to` defaults to now, `from` to a retention before `to`;
 * a room is named within its location and region, a location within its region (each history
 * question is a Query on a key built for it, never a filter over all history).
 */
export const historyFilter = (query: HistoryQuery, now: number, retentionDays: number): HistoryFilter | { problems: { field: string; message: string }[] } => {
  const to = query.to ? Date.parse(query.to) : now;
  const filter: HistoryFilter = {
    from: new Date(query.from ? Date.parse(query.from) : to - retentionDays * DAY_MS).toISOString(),
    to: new Date(to).toISOString(),
  };
  for (const field of ['region', 'location', 'room', 'devicesn', 'watcherId'] as const) {
    const value = narrowing(query[field]);
    if (value !== undefined) filter[field] = value;
  }
  const problems: { field: string; message: string }[] = [];
  if (filter.room !== undefined && (filter.location === undefined || filter.region === undefined)) {
    problems.push({ field: 'queryStringParameters.room', message: 'room needs location and region (a room is named within its location)' });
  }
  if (filter.location !== undefined && filter.region === undefined) {
    problems.push({ field: 'queryStringParameters.location', message: 'location needs region' });
  }
  if (filter.from > filter.to) problems.push({ field: 'queryStringParameters.from', message: 'from must not be after to' });
  return problems.length ? { problems } : filter;
};

