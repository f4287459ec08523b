import { cellText, type CsvTable } from '#lib/shared/csv';
import type { NotificationOutcome } from '../types';
import type { HistoryRecord } from './history';

/*
 * Cleared alarms as CSV (GET /alarms/history?format=csv): one row per history record, in the JSON
 * page's order. A delivery is its recipients joined by spaces, or `suppressed`.
 */

/** The columns, in order (stable: documented in the contract). */
export const ALARM_HISTORY_CSV_COLUMNS = [
  'id',
  'watcherId',
  'severity',
  'devicesn',
  'deviceid',
  'region',
  'location',
  'room',
  'raisedAt',
  'clearedAt',
  'durationSeconds',
  'reason',
  'description',
  'acknowledgedAt',
  'acknowledgedBy',
  'ackComment',
  'notifiedRaised',
  'notifiedCleared',
] as const;

const delivery = (sent: NotificationOutcome | undefined): string => (sent === 'suppressed' ? sent : cellText(sent));

export const ALARM_HISTORY_CSV: CsvTable<HistoryRecord> = {
  columns: ALARM_HISTORY_CSV_COLUMNS,
  cells: (record) => [
    record.id,
    record.watcherId,
    cellText(record.severity),
    record.devicesn,
    record.deviceid,
    record.region,
    record.location,
    record.room,
    record.raisedAt,
    record.clearedAt,
    cellText(record.durationSeconds),
    record.reason,
    cellText(record.description),
    cellText(record.acknowledgedAt),
    cellText(record.acknowledgedBy),
    cellText(record.ackComment),
    delivery(record.notified.raised),
    delivery(record.notified.cleared),
  ],
};
