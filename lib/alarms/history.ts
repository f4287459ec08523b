import type { Place } from '#lib/devices/types';
import type { Acknowledgement, Alarm, ClearReason, Notified, OpenAlarm } from './types';
import { alarmId } from './types';

/** One cleared alarm as GET /alarms/history answers it. */
export interface HistoryRecord extends Alarm, Partial<Acknowledgement> {
  id: string;
  clearedAt: string;
  reason: ClearReason;
  durationSeconds: number;
  /** Where the raise and the clear notifications went, or `suppressed` by a silence. */
  notified: Notified;
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
    ...alarm.acknowledgement,
  };
  if (alarm.description) record.description = alarm.description;
  return record;
};

/** A history query: at most one of the place keys narrows first (see lib/db/alarmHistory). */
export interface HistoryFilter extends Partial<Place> {
  devicesn?: string;
  watcherId?: string;
  /** ISO 8601 bounds on `clearedAt`, inclusive. */
  from: string;
  to: string;
}
