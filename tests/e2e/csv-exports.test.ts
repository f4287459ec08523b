import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { simulatedFleet } from '#lib/inventory/provider/simulated';
import { api, type ApiResponse } from '../support/api';
import { parseCsv } from '../support/csv';

/*
 * CSV exports over HTTP (issue 28 item 5; docs/guide/rules/reports.md): ?format=csv on GET /alarms/history, GET
 * /videoDevice/{devicesn}/history, POST /videoDevice/room/availability and POST
 * /videoDevice/all/allDevices. Each answers text/csv with its header row; its rows are the JSON
 * answer's items in the same order (flattened here independently of lib/); the pages walk every
 * row exactly once, the next cursor in the next-cursor header; a hostile cell comes out behind a
 * quote; a region-scoped viewer's CSV holds only its region. The shared e2e server syncs a still
 * simulated fleet (seed 42, 240 devices in four regions).
 */
const fleet = simulatedFleet({ seed: 42, devices: 240 });
const REGION = 'EMEA';
const ALL = { regionName: 'all', locationName: 'all', roomName: 'all' };
const IN_REGION = { ...ALL, regionName: REGION };
const offline = fleet.filter((d) => !d.status.connected);
const mine = [...offline.filter((d) => d.details.region === REGION).slice(-3), ...offline.filter((d) => d.details.region !== REGION).slice(-2)];
const CSV_TYPE = 'text/csv; charset=utf-8; header=present';
const HOSTILE_COMMENT = '=HYPERLINK("http://evil.example","x"),\r\nsecond line';
const HOSTILE_DESCRIPTION = '@SUM(1+1) -- "quoted", and more';
const PASSWORD = 'csv-viewer-password-7';
const HOUR = 3_600_000;

type Page<T> = { items: T[]; nextCursor: string | null };
type Place = { region: string; location: string; room: string };
type Device = {
  devicesn: string;
  deviceid: string;
  devicemodel: string;
  status: { connected: boolean; inCallStatus: string };
  details: Place;
  vendor?: string;
  vendorDetails?: { connectionDetail?: string; errorCodes?: string[]; software?: string; lastSeen?: string; plannedMaintenance?: string };
  staleSince?: string;
};
type History = {
  id: string; watcherId: string; severity: number; devicesn: string; deviceid: string; region: string; location: string; room: string;
  raisedAt: string; clearedAt: string; durationSeconds: number; reason: string; description?: string;
  acknowledgedAt?: string; acknowledgedBy?: string; ackComment?: string; notified: { raised?: string[] | 'suppressed'; cleared?: string[] | 'suppressed' };
};
type ConnectivityChange = { at: string; connected: boolean; inCallStatus: string };
type Availability = { from: string; to: string; rooms: (Place & { availability: number; deviceCount: number })[]; overall: number };

/** A cell as a spreadsheet reads it back: a formula-leading value behind a quote, absent empty. */
const cell = (value: string | number | boolean | string[] | undefined): string => {
  const text = value === undefined ? '' : Array.isArray(value) ? value.join(' ') : String(value);
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
};
const DEVICE_COLUMNS = 'devicesn,deviceid,region,location,room,connected,inCallStatus,model,vendor,connectionDetail,errorCodes,software,lastSeen,plannedMaintenance,staleSince';
const deviceRow = (d: Device) =>
  [d.devicesn, d.deviceid, d.details.region, d.details.location, d.details.room, d.status.connected, d.status.inCallStatus, d.devicemodel, d.vendor,
    d.vendorDetails?.connectionDetail, d.vendorDetails?.errorCodes, d.vendorDetails?.software, d.vendorDetails?.lastSeen, d.vendorDetails?.plannedMaintenance, d.staleSince].map(cell);
const HISTORY_COLUMNS = 'id,watcherId,severity,devicesn,deviceid,region,location,room,raisedAt,clearedAt,durationSeconds,reason,description,acknowledgedAt,acknowledgedBy,ackComment,notifiedRaised,notifiedCleared';
const historyRow = (r: History) =>
  [r.id, r.watcherId, r.severity, r.devicesn, r.deviceid, r.region, r.location, r.room, r.raisedAt, r.clearedAt, r.durationSeconds, r.reason, r.description,
    r.acknowledgedAt, r.acknowledgedBy, r.ackComment, r.notified.raised, r.notified.cleared].map(cell);

let viewerToken = '';
let watcherId = '';

/** A CSV answer read: its status, type, header row, rows and the next page's cursor. */
const csvOf = (res: ApiResponse<string>) => {
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe(CSV_TYPE);
  expect(res.body.endsWith('\r\n')).toBe(true);
  const [header, ...rows] = parseCsv(res.body);
  return { header: header!.join(','), rows, next: res.headers.get('next-cursor') };
};
const withQuery = (path: string, query: Record<string, string | undefined>) => {
  const params = new URLSearchParams(Object.entries(query).filter((entry): entry is [string, string] => entry[1] !== undefined));
  return `${path}${path.includes('?') ? '&' : '?'}${params}`;
};

/** Every page of a CSV export, and of the same JSON answer page by page: rows and items, in order, with the pages' count. */
const walk = async (method: 'GET' | 'POST', path: string, limit: number, options: { body?: unknown; token?: string } = {}) => {
  const rows: string[][] = [];
  const items: unknown[] = [];
  let header = '';
  let pages = 0;
  for (let cursor: string | undefined; ; ) {
    const csv = csvOf(await api<string>(method, withQuery(path, { format: 'csv', limit: String(limit), cursor }), options));
    const json = await api<Page<unknown>>(method, withQuery(path, { limit: String(limit), cursor }), options);
    expect(json.status).toBe(200);
    expect(csv.rows).toHaveLength(json.body.items.length);
    expect(csv.next).toBe(json.body.nextCursor);
    header = csv.header;
    rows.push(...csv.rows);
    items.push(...json.body.items);
    pages++;
    if (!csv.next) break;
    cursor = csv.next;
    expect(pages).toBeLessThan(100);
  }
  return { header, rows, items, pages };
};

beforeAll(async () => {
  const admin = inject('admin');
  const signIn = async (username: string, password: string) =>
    (await api<{ accessToken: string }>('POST', '/api/authService/auth/signin', { body: { username, password } })).body.accessToken;
  const adminToken = await signIn(admin.username, admin.password);
  const username = `csv-${randomUUID().slice(0, 8)}`;
  const made = await api('POST', '/api/authService/auth', {
    token: adminToken,
    body: { username, password: PASSWORD, email: `${username}@example.com`, name: 'CSV Viewer', role: 'viewer', scope: [{ region: REGION }] },
  });
  expect(made.status).toBe(201);
  viewerToken = await signIn(username, PASSWORD);

  // cleared alarms of this file's own watcher: three devices in the viewer's region, two outside, a hostile description and comment
  const watcher = {
    user: 'ops', dashboard: 'csv-e2e', service: 'video', type: 'offline', allDevices: false, devicesId: mine.map((d) => d.devicesn), severity: 2,
    sendEmail: false, description: HOSTILE_DESCRIPTION,
    operations: { type: 'device', operatorType: 'AND', conditions: [{ element: 'status.connected', operator: '==', value: 'false' }] },
  };
  watcherId = (await api<string>('POST', '/watcher', { body: watcher })).body;
  expect((await api('POST', '/alarms/evaluate')).status).toBe(200);
  expect((await api('POST', `/alarms/${watcherId}:${mine[0]!.devicesn}/ack`, { body: { comment: HOSTILE_COMMENT } })).status).toBe(200);
  expect((await api('PUT', `/watcher/${watcherId}/status`, { body: { active: false } })).status).toBe(200);
  expect((await api('POST', '/alarms/evaluate')).status).toBe(200);
}, 120_000);
afterAll(async () => {
  if (watcherId) await api('DELETE', `/watcher/${watcherId}`);
});

describe('GET /alarms/history?format=csv', () => {
  it('answers the JSON pages as CSV rows, in order, every record once, the cursor in next-cursor', async () => {
    const { header, rows, items, pages } = await walk('GET', `/alarms/history?watcherId=${watcherId}`, 2);
    expect(header).toBe(HISTORY_COLUMNS);
    expect(pages).toBe(3);
    expect(rows).toEqual((items as History[]).map(historyRow));
    expect(rows.map((row) => row[3]).sort()).toEqual(mine.map((d) => d.devicesn).sort());
  });

  it('writes a hostile description and comment as text behind a quote, quoted with their quotes doubled', async () => {
    const res = await api<string>('GET', `/alarms/history?watcherId=${watcherId}&devicesn=${mine[0]!.devicesn}&format=csv`);
    const { rows } = csvOf(res);
    expect(rows).toHaveLength(1);
    expect(rows[0]![12]).toBe(`'${HOSTILE_DESCRIPTION}`);
    expect(rows[0]![15]).toBe(`'${HOSTILE_COMMENT}`);
    expect(res.body).toContain(`,"'=HYPERLINK(""http://evil.example"",""x""),\r\nsecond line",`);
    expect(res.body).toContain(`,"'@SUM(1+1) -- ""quoted"", and more",`);
  });

  it("holds only the scoped viewer's region: the API key's rows of that region", async () => {
    const viewer = csvOf(await api<string>('GET', `/alarms/history?watcherId=${watcherId}&format=csv`, { token: viewerToken }));
    const key = csvOf(await api<string>('GET', `/alarms/history?watcherId=${watcherId}&region=${REGION}&format=csv`));
    expect(viewer.rows.map((row) => row[5])).toEqual([REGION, REGION, REGION]);
    expect(viewer.rows).toEqual(key.rows);
  });

  it('answers 422 for a format it does not know', async () => {
    expect((await api('GET', '/alarms/history?format=xlsx')).status).toBe(422);
  });
});

describe('POST /videoDevice/all/allDevices?format=csv', () => {
  it('walks every device exactly once, the rows the JSON pages\' devices flattened, in order', async () => {
    const { header, rows, items, pages } = await walk('POST', '/videoDevice/all/allDevices', 70, { body: ALL });
    expect(header).toBe(DEVICE_COLUMNS);
    expect(rows).toEqual((items as Device[]).map(deviceRow));
    const total = (await api<number[]>('POST', '/videoDevice/all/totalDevices', { body: ALL })).body[0]!;
    expect(new Set(rows.map((row) => row[0])).size).toBe(total);
    expect(rows).toHaveLength(total);
    expect(pages).toBe(Math.ceil(total / 70));
  });

  it('is always paged: without limit the first 100 devices and a next-cursor (exposed through CORS)', async () => {
    const origin = new URL(inject('docsUrl')).origin;
    const res = await api<string>('POST', '/videoDevice/all/allDevices?format=csv', { body: ALL, headers: { origin } });
    const { rows, next } = csvOf(res);
    expect(rows).toHaveLength(100);
    expect(next).toEqual(expect.any(String));
    expect(res.headers.get('access-control-expose-headers')?.split(',')).toContain('next-cursor');
    const json = await api<Page<Device>>('POST', '/videoDevice/all/allDevices?limit=100', { body: ALL });
    expect(rows).toEqual(json.body.items.map(deviceRow));
  });

  it("holds only the scoped viewer's region: the API key's rows for that region", async () => {
    const viewer = await walk('POST', '/videoDevice/all/allDevices', 1000, { body: ALL, token: viewerToken });
    const key = await walk('POST', '/videoDevice/all/allDevices', 1000, { body: IN_REGION });
    expect(viewer.rows.length).toBeGreaterThan(0);
    expect(new Set(viewer.rows.map((row) => row[2]))).toEqual(new Set([REGION]));
    expect(viewer.rows).toEqual(key.rows);
  });
});

describe('GET /videoDevice/{devicesn}/history?format=csv', () => {
  it('answers the transitions as rows with the serial number, in the JSON order, paged', async () => {
    const device = mine[0]!;
    const { header, rows, items } = await walk('GET', `/videoDevice/${device.devicesn}/history`, 1);
    expect(header).toBe('devicesn,at,connected,inCallStatus');
    expect(rows.length).toBeGreaterThanOrEqual(1);
    expect(rows).toEqual((items as ConnectivityChange[]).map((t) => [device.devicesn, t.at, String(t.connected), t.inCallStatus]));
  });

  it('is 404 for a device outside the scoped viewer\'s region, as in JSON', async () => {
    const outside = mine.at(-1)!;
    expect((await api('GET', `/videoDevice/${outside.devicesn}/history?format=csv`, { token: viewerToken })).status).toBe(404);
    csvOf(await api<string>('GET', `/videoDevice/${mine[0]!.devicesn}/history?format=csv`, { token: viewerToken }));
  });
});

describe('POST /videoDevice/room/availability?format=csv', () => {
  // one window for the JSON and the CSV answer, ending when asked (the fleet was first observed when the server started)
  let window = { from: '', to: '' };
  beforeAll(() => {
    const now = Date.now();
    window = { from: new Date(now - HOUR).toISOString(), to: new Date(now).toISOString() };
  });

  it('answers the rooms as rows, worst first as in JSON, each with the window', async () => {
    const json = await api<Availability>('POST', '/videoDevice/room/availability', { body: { ...ALL, ...window } });
    const { header, rows, next } = csvOf(await api<string>('POST', '/videoDevice/room/availability?format=csv', { body: { ...ALL, ...window } }));
    expect(header).toBe('region,location,room,availability,deviceCount,from,to');
    expect(next).toBeNull();
    expect(rows.length).toBeGreaterThan(1);
    expect(rows).toEqual(json.body.rooms.map((r) => [r.region, r.location, r.room, r.availability, r.deviceCount, window.from, window.to].map(cell)));
  });

  it("holds only the scoped viewer's region", async () => {
    const viewer = csvOf(await api<string>('POST', '/videoDevice/room/availability?format=csv', { body: { ...ALL, ...window }, token: viewerToken }));
    const key = csvOf(await api<string>('POST', '/videoDevice/room/availability?format=csv', { body: { ...IN_REGION, ...window } }));
    expect(viewer.rows.length).toBeGreaterThan(0);
    expect(viewer.rows.every((row) => row[0] === REGION)).toBe(true);
    expect(viewer.rows).toEqual(key.rows);
  });
});
