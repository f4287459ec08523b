import type { AuditRecord } from '#lib/access/audit/types';
import { csvDocument, type CsvTable } from '#lib/shared/csv';

/* The audit log as CSV (GET /audit?format=csv), written by the shared CSV writer (lib/shared/csv.ts). */

/** The columns, in order: one per field of a record (fields changed joined by spaces). */
export const AUDIT_CSV_COLUMNS = [
  'at',
  'event',
  'actorKind',
  'actorId',
  'action',
  'targetType',
  'targetId',
  'status',
  'fields',
  'requestId',
  'sourceIp',
  'userAgent',
  'reason',
  'id',
] as const;

const cellsOf = (record: AuditRecord): string[] => [
  record.at,
  record.event,
  record.actor.kind,
  record.actor.id,
  record.action,
  record.target.type,
  record.target.id ?? '',
  String(record.status),
  record.fields.join(' '),
  record.requestId,
  record.sourceIp,
  record.userAgent,
  record.reason ?? '',
  record.id,
];

export const AUDIT_CSV: CsvTable<AuditRecord> = { columns: AUDIT_CSV_COLUMNS, cells: cellsOf };

/** A page of records as one CSV document: the header row, then one row per record. */
export const auditCsv = (records: readonly AuditRecord[]): string => csvDocument(AUDIT_CSV, records);
