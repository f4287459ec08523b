import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ALARM_HISTORY_CSV, ALARM_HISTORY_CSV_COLUMNS } from '#lib/alarms/pure/csv';
import { AUDIT_CSV_COLUMNS } from '#lib/access/audit/csv';
import { availabilityCsv, DEVICE_CSV, DEVICE_CSV_COLUMNS, deviceHistoryCsv } from '#lib/devices/csv';
import { cellText, CSV_CONTENT_TYPE, csvAnswer, csvCell, csvDocument, csvRow, NEXT_CURSOR_HEADER } from '#lib/shared/csv';
import type { HistoryRecord } from '#lib/alarms/pure/history';
import type { Device } from '#lib/devices/types';
import { parseCsv, QUOTED_CELLS } from '../support/csv';

/* The shared CSV writer (lib/shared/csv.ts) and the tables of the exports (issue 28 item 5). */

const FORMULA = /^[=+\-@\t\r]/;
/** What a spreadsheet reads back from a cell: the value, a formula-leading one behind a quote. */
const readBack = (value: string) => (FORMULA.test(value) ? `'${value}` : value);

describe('csvCell', () => {
  it.each([
    ['=1+1', `"'=1+1"`],
    ['+1', `"'+1"`],
    ['-1', `"'-1"`],
    ['@SUM(A1)', `"'@SUM(A1)"`],
    ['\t=1', `"'\t=1"`],
    ['\r=1', `"'\r=1"`],
    ['=HYPERLINK("http://x","y")', `"'=HYPERLINK(""http://x"",""y"")"`],
  ])('prefixes the formula-leading cell %j with a quote and quotes it', (value, cell) => {
    expect(csvCell(value)).toBe(cell);
  });

  it('quotes a comma, a quote, CR, LF and CRLF, doubling quotes; leaves other cells bare', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('')).toBe('');
    for (const [value, cell] of QUOTED_CELLS) expect(csvCell(value)).toBe(cell);
    expect(csvCell('two\r\nlines')).toBe('"two\r\nlines"');
    expect(csvCell('a\rb')).toBe('"a\rb"');
    expect(csvCell('a=b')).toBe('a=b');
    expect(csvCell(' =1')).toBe(' =1');
  });

  it('passes unicode through as it is, bare when nothing needs quotes', () => {
    for (const text of ['Zürich', 'Raum 東京', 'سلام', 'e\u0301', '👩🏽‍💻 room', '\u00a0x']) expect(csvCell(text)).toBe(text);
  });

  it('turns a lone surrogate into U+FFFD and keeps a pair whole', () => {
    expect(csvCell('a\ud800b')).toBe('a\ufffdb');
    expect(csvCell('a\udc00')).toBe('a\ufffd');
    expect(csvCell('\udc00\ud800')).toBe('\ufffd\ufffd');
    expect(csvCell('\ud83d\ude00')).toBe('\ud83d\ude00');
    expect(csvCell('=\ud800')).toBe(`"'=\ufffd"`);
    expect(Buffer.from(csvCell('x\ud800,'), 'utf8').toString('utf8')).toBe('"x\ufffd,"');
  });

  it('reads back (RFC 4180) as the value, formula cells behind a quote, for any strings', () => {
    fc.assert(
      fc.property(fc.array(fc.array(fc.string({ unit: 'grapheme' }), { minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 5 }), (rows) => {
        const text = rows.map(csvRow).join('');
        expect(parseCsv(text)).toEqual(rows.map((cells) => cells.map(readBack)));
      }),
    );
  });

  it('makes rows a reader cannot run: no cell of any document starts with a formula character', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'binary' }), { minLength: 1, maxLength: 8 }), (cells) => {
        for (const cell of parseCsv(csvRow(cells))[0]!) expect(FORMULA.test(cell)).toBe(false);
      }),
    );
  });
});

describe('csvRow, csvDocument, csvAnswer', () => {
  const table = { columns: ['name', 'n'], cells: (item: { name: string; n: number }) => [item.name, cellText(item.n)] };

  it('ends every row with CRLF, the header row first', () => {
    expect(csvRow(['a', 'b'])).toBe('a,b\r\n');
    expect(csvDocument(table, [{ name: 'x', n: 1 }, { name: 'y,z', n: -2 }])).toBe(`name,n\r\nx,1\r\n"y,z","'-2"\r\n`);
    expect(csvDocument(table, [])).toBe('name,n\r\n');
  });

  it('answers text/csv with the next page\'s cursor in a header, none on the last page', () => {
    expect(csvAnswer(table, { items: [{ name: 'x', n: 1 }], nextCursor: 'abc' })).toEqual({
      statusCode: 200,
      body: 'name,n\r\nx,1\r\n',
      headers: { 'content-type': CSV_CONTENT_TYPE, [NEXT_CURSOR_HEADER]: 'abc' },
    });
    expect(csvAnswer(table, { items: [], nextCursor: null }).headers).toEqual({ 'content-type': 'text/csv; charset=utf-8; header=present' });
  });

  it('writes absent values empty, lists joined by spaces, booleans as true/false', () => {
    expect([undefined, null, ['a', 'b'], true, false, 0.25].map(cellText)).toEqual(['', '', 'a b', 'true', 'false', '0.25']);
  });
});

describe('the tables of the exports', () => {
  it('has stable, distinct column names for each export', () => {
    expect(DEVICE_CSV_COLUMNS.join(',')).toBe(
      'devicesn,deviceid,region,location,room,connected,inCallStatus,model,vendor,connectionDetail,errorCodes,software,lastSeen,plannedMaintenance,staleSince',
    );
    expect(ALARM_HISTORY_CSV_COLUMNS.join(',')).toBe(
      'id,watcherId,severity,devicesn,deviceid,region,location,room,raisedAt,clearedAt,durationSeconds,reason,description,acknowledgedAt,acknowledgedBy,ackComment,notifiedRaised,notifiedCleared',
    );
    for (const columns of [DEVICE_CSV_COLUMNS, ALARM_HISTORY_CSV_COLUMNS, AUDIT_CSV_COLUMNS]) expect(new Set(columns).size).toBe(columns.length);
  });

  it('flattens a device, with or without the optional fields, one cell per column', () => {
    const device: Device = {
      deviceid: 'id-1',
      devicesn: 'SN1',
      devicemodel: 'Room Kit',
      status: { connected: false, inCallStatus: 'NONE' },
      deviceconnected: false,
      details: { region: 'EMEA', location: '=Berlin', room: 'R, 1' },
      vendor: 'webex',
      vendorDetails: { connectionDetail: 'disconnected', errorCodes: ['e1', 'e2'], software: 'ce 11', lastSeen: '2026-11-26T10:00:00.000Z' },
    };
    const [header, row] = parseCsv(csvDocument(DEVICE_CSV, [device]));
    expect(Object.fromEntries(header!.map((column, i) => [column, row![i]]))).toEqual({
      devicesn: 'SN1',
      deviceid: 'id-1',
      region: 'EMEA',
      location: "'=Berlin",
      room: 'R, 1',
      connected: 'false',
      inCallStatus: 'NONE',
      model: 'Room Kit',
      vendor: 'webex',
      connectionDetail: 'disconnected',
      errorCodes: 'e1 e2',
      software: 'ce 11',
      lastSeen: '2026-11-26T10:00:00.000Z',
      plannedMaintenance: '',
      staleSince: '',
    });
    const bare = DEVICE_CSV.cells({ ...device, vendor: undefined, vendorDetails: undefined });
    expect(bare).toHaveLength(DEVICE_CSV_COLUMNS.length);
    expect(bare.slice(8)).toEqual(['', '', '', '', '', '', '']);
  });

  it('writes a history record\'s deliveries as recipients or suppressed', () => {
    const record: HistoryRecord = {
      id: 'w1:SN1', watcherId: 'w1', severity: 2, devicesn: 'SN1', deviceid: 'id-1', region: 'EMEA', location: 'Berlin', room: 'R1',
      raisedAt: '2026-11-26T10:00:00.000Z', clearedAt: '2026-11-26T11:00:00.000Z', reason: 'resolved', durationSeconds: 3600,
      notified: { raised: ['a@example.com', 'b@example.com'], cleared: 'suppressed' },
    };
    const cells = ALARM_HISTORY_CSV.cells(record);
    expect(cells).toHaveLength(ALARM_HISTORY_CSV_COLUMNS.length);
    expect(cells.slice(-8)).toEqual(['3600', 'resolved', '', '', '', '', 'a@example.com b@example.com', 'suppressed']);
  });

  it('writes a device history row with the serial number, an availability row with its window', () => {
    expect(deviceHistoryCsv('SN1').cells({ at: '2026-11-26T10:00:00.000Z', connected: true, inCallStatus: 'ACTIVE' })).toEqual(['SN1', '2026-11-26T10:00:00.000Z', 'true', 'ACTIVE']);
    const window = { from: '2026-11-25T00:00:00.000Z', to: '2026-11-26T00:00:00.000Z' };
    expect(availabilityCsv(window).cells({ region: 'A', location: 'B', room: 'C', availability: 1 / 3, deviceCount: 4 })).toEqual(['A', 'B', 'C', String(1 / 3), '4', window.from, window.to]);
  });
});
