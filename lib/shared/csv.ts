/*
 * CSV exports (GET /audit, /alarms/history, /videoDevice/{devicesn}/history, POST
 * /videoDevice/room/availability and /videoDevice/all/allDevices, each with ?format=csv): RFC 4180
 * (CRLF line ends, a header row, fields quoted when they hold a comma, a quote or a line break,
 * quotes doubled). Cells are data a client or a caller chose (names, descriptions, user agents),
 * and a spreadsheet runs a cell that starts with = + - @ (or a tab or carriage return, which some
 * read past) as a formula: such a cell is prefixed with a single quote, as OWASP "CSV injection"
 * advises, so it opens as text. A lone UTF-16 surrogate (which no UTF-8 text can hold) becomes
 * U+FFFD, as the encoder would make it anyway, so what the cell says is what is sent.
 */

/** The answer header that carries the cursor of the next CSV page (absent on the last). */
export const NEXT_CURSOR_HEADER = 'next-cursor';

/** What a CSV answer says it is: UTF-8, the first line the header row (RFC 4180 §3). */
export const CSV_CONTENT_TYPE = 'text/csv; charset=utf-8; header=present';

const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** One cell, safe to open in a spreadsheet and quoted as RFC 4180 needs. */
export const csvCell = (value: string): string => {
  const whole = value.replace(LONE_SURROGATE, '\uFFFD');
  const text = FORMULA_START.test(whole) ? `'${whole}` : whole;
  return NEEDS_QUOTES.test(text) || text !== whole ? `"${text.replace(/"/g, '""')}"` : text;
};

export const csvRow = (cells: readonly string[]): string => `${cells.map(csvCell).join(',')}\r\n`;

/** A value as a cell's text: absent is empty, a list is its entries joined by spaces. */
export const cellText = (value: string | number | boolean | readonly string[] | undefined | null): string =>
  value === undefined || value === null ? '' : Array.isArray(value) ? value.join(' ') : String(value);

/** A CSV export of one kind of item: its stable column names, in order, and the cells of one item. */
export interface CsvTable<T> {
  columns: readonly string[];
  cells: (item: T) => string[];
}

/** Items as one CSV document: the header row, then one row per item. */
export const csvDocument = <T>(table: CsvTable<T>, items: readonly T[]): string =>
  csvRow(table.columns) + items.map((item) => csvRow(table.cells(item))).join('');

/**
 * A page as a 200 answer in CSV: the header row and the page's rows, the cursor of the next page in
 * the next-cursor header (absent on the last page; CORS exposes it).
 */
export const csvAnswer = <T>(table: CsvTable<T>, page: { items: readonly T[]; nextCursor?: string | null }) => ({
  statusCode: 200 as const,
  body: csvDocument(table, page.items),
  headers: { 'content-type': CSV_CONTENT_TYPE, ...(page.nextCursor ? { [NEXT_CURSOR_HEADER]: page.nextCursor } : {}) },
});
