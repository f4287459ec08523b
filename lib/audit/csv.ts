import type { AuditRecord } from '#lib/shared/audit';

/*
 * The audit log as CSV (GET /audit?format=csv): RFC 4180 (CRLF line ends, a header row, fields
 * quoted when they hold a comma, a quote or a line break, quotes doubled). Cells are data a
 * client or a caller chose (user agents, usernames, ids), and a spreadsheet runs a cell that
 * starts with = + - @ (or a tab or carriage return, which some read past) as a formula: such a
 * cell is prefixed with a single quote, as OWASP "CSV injection" advises, so it opens as text.
 */

/** The answer header that carries the cursor of the next CSV page (absent on the last). */
export const NEXT_CURSOR_HEADER = 'next-cursor';

const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

/** One cell, safe to open in a spreadsheet and quoted as RFC 4180 needs. */
export const csvCell = (value: string): string => {
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(text) || text !== value ? `"${text.replace(/"/g, '""')}"` : text;
};

export const csvRow = (cells: readonly string[]): string => `${cells.map(csvCell).join(',')}\r\n`;

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

/** A page of records as one CSV document: the header row, then one row per record. */
export const auditCsv = (records: readonly AuditRecord[]): string => csvRow(AUDIT_CSV_COLUMNS) + records.map((record) => csvRow(cellsOf(record))).join('');
