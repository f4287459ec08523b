/**
 * The scripted sequence `bench/compare-http.ts` sends to both versions, in this order, one step
 * at a time: every route of docs/openapi.json with its 4xx cases (404, 409, 400, 422, 401/403)
 * and hostile input (lone surrogates, control characters, over-long strings, forged and foreign
 * cursors, limits 0/101/-1, unknown fields, malformed JSON). Ids the versions make (UUIDs) are
 * kept per side in `vars`, so a later step addresses the same record on each side.
 *
 * Absolute times are fixed once per run (`T`) so both sides receive the same bodies.
 */

export type Auth = 'key' | 'admin' | 'viewer' | 'operator' | 'service' | 'none' | 'wrong-key' | 'garbage-token';

export interface Request {
  method: string;
  path: string;
  body?: unknown;
  /** sent as is (malformed or hostile JSON), with content-type application/json unless headers say otherwise */
  raw?: string;
  headers?: Record<string, string>;
  /** who calls: the API key alone (default), or the key and a bearer token of vars */
  auth?: Auth;
}

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  json?: unknown;
}

export type Vars = Record<string, string>;

export interface Step {
  label: string;
  request: (v: Vars) => Request;
  /** a paged list: follow nextCursor (or the next-cursor header) to the end, compare the items as a set */
  page?: boolean;
  /** keep what later steps need (per side) */
  save?: (answer: Answer, v: Vars) => void;
}

const HOUR = 3_600_000;
/** the same instants on both sides, well ahead of the comparison's own duration */
const T0 = Date.UTC(new Date().getUTCFullYear() + 1, 0, 5, 10, 0, 0);
export const T = {
  in1h: new Date(Date.now() + HOUR).toISOString(),
  in2h: new Date(Date.now() + 2 * HOUR).toISOString(),
  future: new Date(T0).toISOString(),
  futureEnd: new Date(T0 + 2 * HOUR).toISOString(),
  // whole hours: the same window on both sides, though they answer moments apart
  pastFrom: new Date(Math.floor(Date.now() / HOUR) * HOUR - 7 * 24 * HOUR).toISOString(),
  today: new Date(Math.floor(Date.now() / HOUR) * HOUR).toISOString(),
};

const json = (answer: Answer): Record<string, unknown> => (answer.json && typeof answer.json === 'object' ? (answer.json as Record<string, unknown>) : {});
const field = (answer: Answer, name: string): string => String(json(answer)[name] ?? '');
/** a field of the answer, or the answer itself when it is a bare string (POST /watcher answers the new id) */
const saveField = (name: string, as = name) => (answer: Answer, v: Vars) => {
  const value = typeof answer.json === 'string' ? answer.json : field(answer, name);
  if (value) v[as] = value;
};

const ALL = { regionName: 'all', locationName: 'all', roomName: 'all' };
const LONE_SURROGATE = '"\\ud800"';
const CONTROL = 'a\u0000b\u0007c';
const LONG = 'x'.repeat(10_000);
const FORGED_CURSOR = 'eyJmb3JnZWQiOnRydWV9.AAAAAAAAAAAAAAAAAAAAAA';

const intervals = (n: number) =>
  Object.fromEntries(
    ['intervalFeedbackTestApi', 'intervalDeviceStatus', 'intervalDeviceStatusEspera', 'intervalAllDevices', 'intervalDeviceWatchers', 'intervalDeviceWatchersTimeout', 'intervalRefreshToken', 'intervalDeviceInternalConsult', 'intervalDeviceSyncInfo'].map((f) => [f, n]),
  );

const watcher = (v: Vars, extra: Record<string, unknown> = {}) => ({
  user: 'compare',
  dashboard: 'compare',
  service: 'video',
  type: 'offline',
  allDevices: false,
  devicesId: [v.serial],
  severity: 2,
  operations: { type: 'device', operatorType: 'AND', conditions: [{ element: 'status.connected', operator: '==', value: 'false' }] },
  description: 'compare watcher',
  sendEmail: true,
  emails: ['compare@example.com'],
  ...extra,
});

const step = (label: string, request: Step['request'], more: Omit<Step, 'label' | 'request'> = {}): Step => ({ label, request, ...more });
const get = (path: string, auth?: Auth): Step => step(`GET ${path}${auth ? ` (${auth})` : ''}`, () => ({ method: 'GET', path, auth }));

/** limit and cursor abuse on one paged list route */
const pagingAbuse = (label: string, request: (v: Vars, query: string) => Request): Step[] =>
  ['limit=0', 'limit=101', 'limit=-1', 'limit=abc', 'limit=1.5', 'limit=1001', `cursor=${FORGED_CURSOR}`, 'cursor=%ED%A0%80', 'cursor=', 'cursor=x&limit=1'].map((q) =>
    step(`${label} ?${q}`, (v) => request(v, q)),
  ).concat([
    step(`${label} with a foreign cursor (from the device list)`, (v) => request(v, `limit=1&cursor=${v.deviceCursor}`)),
    step(`${label} with a tampered cursor`, (v) => request(v, `limit=1&cursor=${v.deviceCursor?.slice(0, -2)}AA`)),
  ]);

/** hostile bodies on one route that takes JSON */
const bodyAbuse = (label: string, method: string, path: (v: Vars) => string, valid: (v: Vars) => Record<string, unknown>, textField: string, auth?: Auth): Step[] => [
  step(`${label}: malformed JSON`, (v) => ({ method, path: path(v), raw: '{"a":', auth })),
  step(`${label}: JSON string body`, (v) => ({ method, path: path(v), raw: '"text"', auth })),
  step(`${label}: array body`, (v) => ({ method, path: path(v), raw: '[]', auth })),
  step(`${label}: empty body`, (v) => ({ method, path: path(v), raw: '', auth })),
  step(`${label}: text/plain`, (v) => ({ method, path: path(v), raw: JSON.stringify(valid(v)), headers: { 'content-type': 'text/plain' }, auth })),
  step(`${label}: latin1 charset`, (v) => ({ method, path: path(v), raw: JSON.stringify(valid(v)), headers: { 'content-type': 'application/json; charset=latin1' }, auth })),
  step(`${label}: unknown field`, (v) => ({ method, path: path(v), body: { ...valid(v), unknownField: 1 }, auth })),
  step(`${label}: lone surrogate in ${textField}`, (v) => ({ method, path: path(v), raw: JSON.stringify({ ...valid(v), [textField]: '@@' }).replace('"@@"', LONE_SURROGATE), auth })),
  step(`${label}: control characters in ${textField}`, (v) => ({ method, path: path(v), body: { ...valid(v), [textField]: CONTROL }, auth })),
  step(`${label}: over-long ${textField}`, (v) => ({ method, path: path(v), body: { ...valid(v), [textField]: LONG }, auth })),
  step(`${label}: prototype keys`, (v) => ({ method, path: path(v), raw: '{"__proto__":{"polluted":true},"constructor":{"prototype":{"x":1}}}', auth })),
  step(`${label}: 300-deep nesting`, (v) => ({ method, path: path(v), raw: '{"a":'.repeat(300) + '1' + '}'.repeat(300), auth })),
  step(`${label}: 200 KB body`, (v) => ({ method, path: path(v), body: { ...valid(v), [textField]: 'y'.repeat(200_000) }, auth })),
];

/** hostile path parameters on one route */
const pathAbuse = (label: string, method: string, path: (segment: string) => string, auth?: Auth, body?: unknown): Step[] =>
  [
    ['unknown id', '00000000-0000-4000-8000-000000000000'],
    ['lone surrogate', '%ED%A0%80'],
    ['NUL', '%00'],
    ['control', 'a%07b'],
    ['2,000 characters', 'z'.repeat(2000)],
    ['dot-dot', '..%2F..'],
    ['number', '12345'],
  ].map(([what, segment]) => step(`${label} with ${what} id`, () => ({ method, path: path(segment!), auth, body })));

export const sequence = (): Step[] => [
  // --- who calls -------------------------------------------------------------------------------
  get('/intervals', 'none'),
  get('/intervals', 'wrong-key'),
  get('/intervals', 'garbage-token'),
  get('/api/authService/auth/all'),
  step('signin wrong password', () => ({ method: 'POST', path: '/api/authService/auth/signin', body: { username: 'admin', password: 'wrong-password-1' } })),
  step('signin unknown user', () => ({ method: 'POST', path: '/api/authService/auth/signin', body: { username: 'nobody-here', password: 'whatever-password' } })),
  step('signin missing password', () => ({ method: 'POST', path: '/api/authService/auth/signin', body: { username: 'admin' } })),
  step('signin admin', () => ({ method: 'POST', path: '/api/authService/auth/signin', body: { username: 'admin', password: 'local-admin-password' } }), {
    save: saveField('accessToken', 'adminToken'),
  }),
  ...bodyAbuse('signin', 'POST', () => '/api/authService/auth/signin', () => ({ username: 'admin', password: 'x-wrong-password' }), 'username'),
  get('/api/authService/auth/me', 'admin'),
  get('/api/authService/auth/me'),
  get('/api/authService/auth/all', 'admin'),
  get('/api/authService/auth/admin', 'admin'),
  get('/api/authService/auth/nobody', 'admin'),

  // --- roles -----------------------------------------------------------------------------------
  get('/api/authService/role/all', 'admin'),
  step('create role', () => ({ method: 'POST', path: '/api/authService/role', auth: 'admin', body: { name: 'compare-reader', description: 'reads', permissions: ['fleet:read'] } }), {
    save: (a, v) => (v.role = field(a, 'id') || field(a, 'name') || 'compare-reader'),
  }),
  step('create role again (duplicate)', () => ({ method: 'POST', path: '/api/authService/role', auth: 'admin', body: { name: 'compare-reader', permissions: ['fleet:read'] } })),
  step('create role with unknown permission', () => ({ method: 'POST', path: '/api/authService/role', auth: 'admin', body: { name: 'compare-bad', permissions: ['fleet:fly'] } })),
  ...bodyAbuse('create role', 'POST', () => '/api/authService/role', () => ({ name: 'compare-hostile', permissions: ['fleet:read'] }), 'name', 'admin'),
  step('GET role', (v) => ({ method: 'GET', path: `/api/authService/role/${v.role}`, auth: 'admin' })),
  step('PUT role', (v) => ({ method: 'PUT', path: `/api/authService/role/${v.role}`, auth: 'admin', body: { description: 'reads and acks', permissions: ['fleet:read', 'alarms:ack'] } })),
  step('PUT built-in role', () => ({ method: 'PUT', path: '/api/authService/role/admin', auth: 'admin', body: { description: 'changed' } })),
  step('DELETE built-in role', () => ({ method: 'DELETE', path: '/api/authService/role/viewer', auth: 'admin' })),
  ...pathAbuse('GET role', 'GET', (s) => `/api/authService/role/${s}`, 'admin'),
  step('role createTable', () => ({ method: 'POST', path: '/api/authService/role/createTable', auth: 'admin' })),
  get('/api/authService/role/all', 'admin'),

  // --- users -----------------------------------------------------------------------------------
  step('create viewer user', () => ({ method: 'POST', path: '/api/authService/auth', auth: 'admin', body: { username: 'cmp-viewer', password: 'viewer-pass-Long-1', email: 'viewer@example.com', name: 'Viewer', role: 'viewer' } })),
  step('create viewer user again', () => ({ method: 'POST', path: '/api/authService/auth', auth: 'admin', body: { username: 'cmp-viewer', password: 'viewer-pass-Long-1', email: 'viewer@example.com', name: 'Viewer', role: 'viewer' } })),
  step('create user with a common password', () => ({ method: 'POST', path: '/api/authService/auth', auth: 'admin', body: { username: 'cmp-weak', password: 'password123', email: 'weak@example.com', name: 'Weak', role: 'viewer' } })),
  step('create user with unknown role', () => ({ method: 'POST', path: '/api/authService/auth', auth: 'admin', body: { username: 'cmp-norole', password: 'viewer-pass-Long-1', email: 'nr@example.com', name: 'No role', role: 'no-such-role' } })),
  step('create scoped operator', () => ({ method: 'POST', path: '/api/authService/auth', auth: 'admin', body: { username: 'cmp-operator', password: 'operator-pass-Long-1', email: 'op@example.com', name: 'Operator', role: 'operator', scope: [{ region: 'APAC' }] } })),
  step('create user of the created role', (v) => ({ method: 'POST', path: '/api/authService/auth', auth: 'admin', body: { username: 'cmp-reader', password: 'reader-pass-Long-1', email: 'r@example.com', name: 'Reader', role: v.role } })),
  ...bodyAbuse('create user', 'POST', () => '/api/authService/auth', () => ({ username: 'cmp-hostile', password: 'hostile-pass-Long-1', email: 'h@example.com', name: 'H', role: 'viewer' }), 'name', 'admin'),
  step('create user as the key (no admin)', () => ({ method: 'POST', path: '/api/authService/auth', body: { username: 'cmp-key', password: 'key-pass-Long-1', email: 'k@example.com', name: 'K', role: 'viewer' } })),
  step('signin viewer', () => ({ method: 'POST', path: '/api/authService/auth/signin', body: { username: 'cmp-viewer', password: 'viewer-pass-Long-1' } }), { save: saveField('accessToken', 'viewerToken') }),
  step('signin operator', () => ({ method: 'POST', path: '/api/authService/auth/signin', body: { username: 'cmp-operator', password: 'operator-pass-Long-1' } }), { save: saveField('accessToken', 'operatorToken') }),
  get('/api/authService/auth/me', 'viewer'),
  get('/api/authService/auth/cmp-viewer', 'admin'),
  get('/api/authService/auth/cmp-viewer', 'viewer'),
  ...pathAbuse('GET user', 'GET', (s) => `/api/authService/auth/${s}`, 'admin'),
  step('admin sets viewer password', () => ({ method: 'POST', path: '/api/authService/auth/cmp-reader/password/admin', auth: 'admin', body: { newPassword: 'reader-pass-Long-2' } })),
  step('admin sets a short password', () => ({ method: 'POST', path: '/api/authService/auth/cmp-reader/password/admin', auth: 'admin', body: { newPassword: 'short' } })),
  step('admin sets password of unknown user', () => ({ method: 'POST', path: '/api/authService/auth/nobody-here/password/admin', auth: 'admin', body: { newPassword: 'reader-pass-Long-2' } })),
  step('own password, wrong current', () => ({ method: 'POST', path: '/api/authService/auth/me/password', auth: 'viewer', body: { currentPassword: 'not-it-at-all-1', newPassword: 'viewer-pass-Long-2' } })),
  step('own password', () => ({ method: 'POST', path: '/api/authService/auth/me/password', auth: 'viewer', body: { currentPassword: 'viewer-pass-Long-1', newPassword: 'viewer-pass-Long-2' } })),
  get('/api/authService/auth/me', 'viewer'),
  step('signin viewer again', () => ({ method: 'POST', path: '/api/authService/auth/signin', body: { username: 'cmp-viewer', password: 'viewer-pass-Long-2' } }), { save: saveField('accessToken', 'viewerToken') }),
  step('delete role in use', (v) => ({ method: 'DELETE', path: `/api/authService/role/${v.role}`, auth: 'admin' })),
  step('delete user cmp-reader', () => ({ method: 'DELETE', path: '/api/authService/auth/cmp-reader', auth: 'admin' })),
  step('delete user cmp-reader again', () => ({ method: 'DELETE', path: '/api/authService/auth/cmp-reader', auth: 'admin' })),
  step('delete own account', () => ({ method: 'DELETE', path: '/api/authService/auth/admin', auth: 'admin' })),
  step('delete role', (v) => ({ method: 'DELETE', path: `/api/authService/role/${v.role}`, auth: 'admin' })),
  step('delete role again', (v) => ({ method: 'DELETE', path: `/api/authService/role/${v.role}`, auth: 'admin' })),
  step('GET /api/authService/auth/all', () => ({ method: 'GET', path: '/api/authService/auth/all', auth: 'admin' })),

  // --- services --------------------------------------------------------------------------------
  get('/api/authService/service', 'admin'),
  step('create service', () => ({ method: 'POST', path: '/api/authService/service', auth: 'admin', body: { name: 'cmp-service', description: 'compare', url: 'https://svc.example.com', role: 'viewer' } }), {
    save: (a, v) => {
      v.service = field(a, 'id');
      v.serviceSecret = field(a, 'secret');
    },
  }),
  step('create service again', () => ({ method: 'POST', path: '/api/authService/service', auth: 'admin', body: { name: 'cmp-service', url: 'https://svc.example.com' } })),
  step('create service with http URL', () => ({ method: 'POST', path: '/api/authService/service', auth: 'admin', body: { name: 'cmp-service-2', url: 'ftp://svc.example.com' } })),
  ...bodyAbuse('create service', 'POST', () => '/api/authService/service', () => ({ name: 'cmp-service-h', url: 'https://h.example.com' }), 'name', 'admin'),
  step('GET service', (v) => ({ method: 'GET', path: `/api/authService/service/${v.service}`, auth: 'admin' })),
  ...pathAbuse('GET service', 'GET', (s) => `/api/authService/service/${s}`, 'admin'),
  step('PUT service', (v) => ({ method: 'PUT', path: `/api/authService/service/${v.service}`, auth: 'admin', body: { description: 'changed', active: true } })),
  step('PUT unknown service', () => ({ method: 'PUT', path: '/api/authService/service/00000000-0000-4000-8000-000000000000', auth: 'admin', body: { description: 'changed' } })),
  step('service token, wrong secret', (v) => ({ method: 'POST', path: '/api/authService/service/token', body: { id: v.service, secret: 'wrong-secret-wrong-secret' } })),
  step('service token', (v) => ({ method: 'POST', path: '/api/authService/service/token', body: { id: v.service, secret: v.serviceSecret } }), { save: saveField('accessToken', 'serviceToken') }),
  get('/intervals', 'service'),
  step('service writes (viewer role)', () => ({ method: 'POST', path: '/intervals', auth: 'service', body: intervals(40) })),
  step('rotate service secret', (v) => ({ method: 'POST', path: `/api/authService/service/${v.service}/rotate-secret`, auth: 'admin' }), { save: saveField('secret', 'serviceSecret') }),
  step('service token, old secret', (v) => ({ method: 'POST', path: '/api/authService/service/token', body: { id: v.service, secret: 'old-secret-is-gone-now' } })),
  step('service token, new secret', (v) => ({ method: 'POST', path: '/api/authService/service/token', body: { id: v.service, secret: v.serviceSecret } })),
  step('service table', () => ({ method: 'POST', path: '/api/authService/service/table', auth: 'admin' })),
  get('/api/authService/service', 'admin'),
  step('DELETE service', (v) => ({ method: 'DELETE', path: `/api/authService/service/${v.service}`, auth: 'admin' })),
  step('DELETE service again', (v) => ({ method: 'DELETE', path: `/api/authService/service/${v.service}`, auth: 'admin' })),
  step('rotate deleted service', (v) => ({ method: 'POST', path: `/api/authService/service/${v.service}/rotate-secret`, auth: 'admin' })),

  // --- devices and lookups ---------------------------------------------------------------------
  get('/filters/videodevices'),
  step('allDevices first page', () => ({ method: 'POST', path: '/videoDevice/all/allDevices?limit=3', body: ALL }), {
    save: (a, v) => {
      const items = (json(a).items ?? []) as { devicesn: string; details: { region: string; location: string; room: string } }[];
      v.deviceCursor = field(a, 'nextCursor');
      const first = items[0];
      if (first) Object.assign(v, { serial: first.devicesn, region: first.details.region, location: first.details.location, room: first.details.room });
    },
  }),
  step('allDevices, every page', () => ({ method: 'POST', path: '/videoDevice/all/allDevices?limit=37', body: ALL }), { page: true }),
  step('allDevices, unpaged', () => ({ method: 'POST', path: '/videoDevice/all/allDevices', body: ALL })),
  step('allDevices CSV, every page', () => ({ method: 'POST', path: '/videoDevice/all/allDevices?format=csv&limit=80', body: ALL }), { page: true }),
  step('allDevices of a region', (v) => ({ method: 'POST', path: '/videoDevice/all/allDevices', body: { regionName: v.region, locationName: 'all', roomName: 'all' } })),
  step('allDevices of a room', (v) => ({ method: 'POST', path: '/videoDevice/all/allDevices', body: { regionName: v.region, locationName: v.location, roomName: v.room } })),
  step('allDevices of an unknown region', () => ({ method: 'POST', path: '/videoDevice/all/allDevices', body: { regionName: 'Atlantis', locationName: 'all', roomName: 'all' } })),
  step('allDevices format=xml', () => ({ method: 'POST', path: '/videoDevice/all/allDevices?format=xml', body: ALL })),
  ...pagingAbuse('allDevices', (_v, q) => ({ method: 'POST', path: `/videoDevice/all/allDevices?${q}`, body: ALL })),
  ...bodyAbuse('allDevices', 'POST', () => '/videoDevice/all/allDevices', () => ALL, 'regionName'),
  ...['devicesConnected', 'numOfDevicesByRoom', 'totalDevices'].flatMap((route) => [
    step(`${route} all`, () => ({ method: 'POST', path: `/videoDevice/all/${route}`, body: ALL })),
    step(`${route} region`, (v) => ({ method: 'POST', path: `/videoDevice/all/${route}`, body: { regionName: v.region, locationName: 'all', roomName: 'all' } })),
    step(`${route} location`, (v) => ({ method: 'POST', path: `/videoDevice/all/${route}`, body: { regionName: v.region, locationName: v.location, roomName: 'all' } })),
    step(`${route} missing fields`, () => ({ method: 'POST', path: `/videoDevice/all/${route}`, body: { regionName: 'all' } })),
  ]),
  ...['numDevicesConnected', 'numOfRooms', 'roomStatusCount'].flatMap((route) => [
    step(`${route} all`, () => ({ method: 'POST', path: `/videoDevice/room/${route}`, body: ALL })),
    step(`${route} region`, (v) => ({ method: 'POST', path: `/videoDevice/room/${route}`, body: { regionName: v.region, locationName: 'all', roomName: 'all' } })),
    step(`${route} room`, (v) => ({ method: 'POST', path: `/videoDevice/room/${route}`, body: { regionName: v.region, locationName: v.location, roomName: v.room } })),
    step(`${route} unknown field`, () => ({ method: 'POST', path: `/videoDevice/room/${route}`, body: { ...ALL, extra: true } })),
  ]),
  step('availability all', () => ({ method: 'POST', path: '/videoDevice/room/availability', body: { ...ALL, from: T.pastFrom, to: T.today } })),
  step('availability room, business hours', (v) => ({ method: 'POST', path: '/videoDevice/room/availability', body: { regionName: v.region, locationName: v.location, roomName: v.room, from: T.pastFrom, to: T.today, hours: 'business' } })),
  step('availability CSV', () => ({ method: 'POST', path: '/videoDevice/room/availability?format=csv', body: { ...ALL, from: T.pastFrom, to: T.today } })),
  step('availability from after to', () => ({ method: 'POST', path: '/videoDevice/room/availability', body: { ...ALL, from: T.today, to: T.pastFrom } })),
  step('availability bad date', () => ({ method: 'POST', path: '/videoDevice/room/availability', body: { ...ALL, from: '2026-02-30', to: T.today } })),
  step('availability, window of the day', () => ({ method: 'POST', path: '/videoDevice/room/availability', body: { ...ALL, from: T.pastFrom, to: T.future } })),
  step('availability unhealthyDays -1', () => ({ method: 'POST', path: '/videoDevice/room/availability', body: { ...ALL, unhealthyDays: -1 } })),
  step('one device', (v) => ({ method: 'POST', path: `/videoDevice/${v.serial}`, body: {} })),
  step('one device, no body', (v) => ({ method: 'POST', path: `/videoDevice/${v.serial}` })),
  ...pathAbuse('one device', 'POST', (s) => `/videoDevice/${s}`, undefined, {}),
  step('device history', (v) => ({ method: 'GET', path: `/videoDevice/${v.serial}/history` }), { page: true }),
  step('device history CSV', (v) => ({ method: 'GET', path: `/videoDevice/${v.serial}/history?format=csv` })),
  step('device history from after to', (v) => ({ method: 'GET', path: `/videoDevice/${v.serial}/history?from=${T.future}&to=${T.in1h}` })),
  step('unknown device history', () => ({ method: 'GET', path: '/videoDevice/NOPE-0000/history' })),
  ...pagingAbuse('device history', (v, q) => ({ method: 'GET', path: `/videoDevice/${v.serial}/history?${q}` })),
  step('refresh device', (v) => ({ method: 'POST', path: `/videoDevice/refresh/${v.serial}`, body: {} })),
  step('refresh unknown device', () => ({ method: 'POST', path: '/videoDevice/refresh/NOPE-0000', body: {} })),
  step('refresh with lone surrogate serial', () => ({ method: 'POST', path: '/videoDevice/refresh/%ED%A0%80', body: {} })),
  step('one device after refresh', (v) => ({ method: 'POST', path: `/videoDevice/${v.serial}`, body: {} })),
  step('lookup region', (v) => ({ method: 'POST', path: '/filters/region', body: { regionName: v.region } })),
  step('lookup region all', () => ({ method: 'POST', path: '/filters/region', body: {} })),
  step('lookup location', (v) => ({ method: 'POST', path: '/filters/location', body: { regionName: v.region } })),
  step('lookup location with filters', (v) => ({ method: 'POST', path: '/filters/location', body: { regionName: v.region, filters: [] } })),
  step('lookup room', (v) => ({ method: 'POST', path: '/filters/room', body: { regionName: v.region, locationName: v.location } })),
  step('lookup room of unknown location', (v) => ({ method: 'POST', path: '/filters/room', body: { regionName: v.region, locationName: 'Nowhere' } })),
  ...bodyAbuse('lookup room', 'POST', () => '/filters/room', (v) => ({ regionName: v.region, locationName: v.location }), 'locationName'),
  step('locations by zone', (v) => ({ method: 'GET', path: `/filters/location/byzone/${encodeURIComponent(v.region!)}` })),
  step('locations by unknown zone', () => ({ method: 'GET', path: '/filters/location/byzone/Atlantis' })),
  step('locations by lone-surrogate zone', () => ({ method: 'GET', path: '/filters/location/byzone/%ED%A0%80' })),
  get('/providers'),
  get('/filter/alarmservices'),
  get('/filter/alarmtypes'),
  get('/filter/dashboards'),

  // --- intervals -------------------------------------------------------------------------------
  get('/intervals'),
  step('create intervals', () => ({ method: 'POST', path: '/intervals', body: intervals(45) }), { save: saveField('id', 'interval') }),
  step('create intervals as viewer', () => ({ method: 'POST', path: '/intervals', auth: 'viewer', body: intervals(45) })),
  step('create intervals, missing fields', () => ({ method: 'POST', path: '/intervals', body: { intervalDeviceStatus: 5 } })),
  step('create intervals, negative', () => ({ method: 'POST', path: '/intervals', body: intervals(-5) })),
  ...bodyAbuse('create intervals', 'POST', () => '/intervals', () => intervals(45), 'intervalDeviceStatus'),
  get('/intervals'),
  step('GET interval', (v) => ({ method: 'GET', path: `/intervals/${v.interval}` })),
  step('GET interval 999999', () => ({ method: 'GET', path: '/intervals/999999' })),
  step('GET interval abc', () => ({ method: 'GET', path: '/intervals/abc' })),
  step('PUT interval', (v) => ({ method: 'PUT', path: `/intervals/${v.interval}`, body: { intervalDeviceStatus: 50 } })),
  step('PUT interval zero', (v) => ({ method: 'PUT', path: `/intervals/${v.interval}`, body: { intervalDeviceStatus: 0 } })),
  step('PUT unknown interval', () => ({ method: 'PUT', path: '/intervals/999999', body: { intervalDeviceStatus: 50 } })),
  step('intervals createTable', () => ({ method: 'POST', path: '/intervals/createTable' })),
  step('DELETE interval', (v) => ({ method: 'DELETE', path: `/intervals/${v.interval}` })),
  step('DELETE interval again', (v) => ({ method: 'DELETE', path: `/intervals/${v.interval}` })),
  step('create intervals again', () => ({ method: 'POST', path: '/intervals', body: intervals(60) })),

  // --- filters and filter configurations -------------------------------------------------------
  get('/filters'),
  step('upsert filters', (v) => ({ method: 'POST', path: '/filters', body: [{ id: 1, name: 'one' }, { id: 2, name: 'two', description: 'ελληνικά', deviceSN: v.serial }, { id: 3, name: 'three' }] })),
  step('upsert filters, duplicate ids', () => ({ method: 'POST', path: '/filters', body: [{ id: 4, name: 'a' }, { id: 4, name: 'b' }] })),
  step('upsert filters, empty list', () => ({ method: 'POST', path: '/filters', body: [] })),
  step('upsert filters, id 0', () => ({ method: 'POST', path: '/filters', body: [{ id: 0, name: 'zero' }] })),
  step('upsert filters, lone surrogate', () => ({ method: 'POST', path: '/filters', raw: `[{"id":5,"name":${LONE_SURROGATE}}]` })),
  step('upsert filters, control chars', () => ({ method: 'POST', path: '/filters', body: [{ id: 5, name: CONTROL }] })),
  step('upsert filters, over-long', () => ({ method: 'POST', path: '/filters', body: [{ id: 5, name: LONG }] })),
  step('upsert filters, unknown field', () => ({ method: 'POST', path: '/filters', body: [{ id: 5, name: 'x', colour: 'red' }] })),
  step('upsert filters, malformed', () => ({ method: 'POST', path: '/filters', raw: '[{"id":5,' })),
  get('/filters'),
  get('/filters/count'),
  get('/filters/2'),
  get('/filters/99999'),
  get('/filters/abc'),
  get('/filters/-1'),
  step('upsert one filter', (v) => ({ method: 'POST', path: '/filters/3', body: { name: 'three b', description: 'changed', deviceSN: v.serial } })),
  step('upsert one filter, missing description', () => ({ method: 'POST', path: '/filters/6', body: { name: 'six' } })),
  step('upsert one filter, bad id', () => ({ method: 'POST', path: '/filters/x', body: { name: 'x', description: 'x' } })),
  ...bodyAbuse('upsert one filter', 'POST', () => '/filters/7', () => ({ name: 'seven', description: 'd' }), 'name'),
  step('filter of device', (v) => ({ method: 'GET', path: `/filters/device/${v.serial}` })),
  step('filter of unknown device', () => ({ method: 'GET', path: '/filters/device/NOPE-0000' })),
  step('filter of lone-surrogate device', () => ({ method: 'GET', path: '/filters/device/%ED%A0%80' })),
  step('DELETE filter 1', () => ({ method: 'DELETE', path: '/filters/1' })),
  step('DELETE filter 1 again', () => ({ method: 'DELETE', path: '/filters/1' })),
  step('keep only filters 2', () => ({ method: 'DELETE', path: '/filters', body: [2] })),
  step('keep only, bad ids', () => ({ method: 'DELETE', path: '/filters', body: ['a'] })),
  step('write filters as viewer', () => ({ method: 'POST', path: '/filters/8', auth: 'viewer', body: { name: 'v', description: 'v' } })),
  get('/filters'),
  get('/filtersConfig'),
  step('upsert filter configs', (v) => ({ method: 'POST', path: '/filtersConfig', body: [{ id: 21, region: v.region, locations: [{ locationName: v.location }] }, { id: 22, region: 'EMEA', locations: [] }, { id: 23, region: 'AMER', locations: [{ locationName: 'Toronto' }, { locationName: 'Chicago' }] }] })),
  step('upsert filter configs, missing locations', () => ({ method: 'POST', path: '/filtersConfig', body: [{ id: 24, region: 'EMEA' }] })),
  step('upsert filter configs, lone surrogate', () => ({ method: 'POST', path: '/filtersConfig', raw: `[{"id":24,"region":${LONE_SURROGATE},"locations":[]}]` })),
  step('filter configs, every page', () => ({ method: 'GET', path: '/filtersConfig?limit=1' }), { page: true }),
  ...pagingAbuse('filter configs', (_v, q) => ({ method: 'GET', path: `/filtersConfig?${q}` })),
  get('/filtersConfig/count'),
  get('/filtersConfig/21'),
  get('/filtersConfig/99999'),
  get('/filtersConfig/21', 'operator'),
  get('/filtersConfig/22', 'operator'),
  get('/filtersConfig/count', 'operator'),
  step('upsert one filter config', () => ({ method: 'POST', path: '/filtersConfig/25', body: { region: { regionName: 'LATAM', location: [{ locationName: 'Bogota', room: [] }] } } })),
  step('upsert one filter config, flat region', () => ({ method: 'POST', path: '/filtersConfig/26', body: { region: 'LATAM', locations: [] } })),
  step('upsert one filter config, missing region', () => ({ method: 'POST', path: '/filtersConfig/26', body: { locations: [] } })),
  step('upsert one filter config, lone surrogate', () => ({ method: 'POST', path: '/filtersConfig/27', raw: `{"region":{"regionName":${LONE_SURROGATE},"location":[]}}` })),
  step('upsert one filter config, control chars', () => ({ method: 'POST', path: '/filtersConfig/27', body: { region: { regionName: CONTROL, location: [] } } })),
  step('upsert one filter config, over-long', () => ({ method: 'POST', path: '/filtersConfig/27', body: { region: { regionName: LONG, location: [] } } })),
  step('upsert one filter config, unknown field', () => ({ method: 'POST', path: '/filtersConfig/27', body: { region: { regionName: 'EMEA', location: [], zone: 1 } } })),
  step('DELETE filter config 22', () => ({ method: 'DELETE', path: '/filtersConfig/22' })),
  step('DELETE filter config 22 again', () => ({ method: 'DELETE', path: '/filtersConfig/22' })),
  step('keep only filter configs 21, 25', () => ({ method: 'DELETE', path: '/filtersConfig', body: [21, 25] })),
  get('/filtersConfig'),

  // --- locations -------------------------------------------------------------------------------
  step('PUT location profile', (v) => ({ method: 'PUT', path: `/locations/${encodeURIComponent(v.region!)}/${encodeURIComponent(v.location!)}/profile`, body: { timeZone: 'europe/berlin', businessHours: 'Mon-Fri 08:00-18:00', rooms: [{ room: v.room, businessHours: '24h' }] } })),
  step('PUT location profile, bad zone', (v) => ({ method: 'PUT', path: `/locations/${encodeURIComponent(v.region!)}/${encodeURIComponent(v.location!)}/profile`, body: { timeZone: 'Mars/Olympus' } })),
  step('PUT location profile, bad hours', (v) => ({ method: 'PUT', path: `/locations/${encodeURIComponent(v.region!)}/${encodeURIComponent(v.location!)}/profile`, body: { timeZone: 'UTC', businessHours: 'Mon-Fri 18:00-08:00x' } })),
  step('PUT unknown location profile', () => ({ method: 'PUT', path: '/locations/Atlantis/Nowhere/profile', body: { timeZone: 'UTC' } })),
  ...bodyAbuse('PUT location profile', 'PUT', (v) => `/locations/${encodeURIComponent(v.region!)}/${encodeURIComponent(v.location!)}/profile`, () => ({ timeZone: 'UTC' }), 'businessHours'),
  step('GET location profile', (v) => ({ method: 'GET', path: `/locations/${encodeURIComponent(v.region!)}/${encodeURIComponent(v.location!)}/profile` })),
  step('GET location profile (operator)', (v) => ({ method: 'GET', path: `/locations/${encodeURIComponent(v.region!)}/${encodeURIComponent(v.location!)}/profile`, auth: 'operator' })),
  step('GET lone-surrogate location profile', () => ({ method: 'GET', path: '/locations/%ED%A0%80/x/profile' })),
  step('location profiles', () => ({ method: 'GET', path: '/locations/profiles?limit=1' }), { page: true }),
  ...pagingAbuse('location profiles', (_v, q) => ({ method: 'GET', path: `/locations/profiles?${q}` })),
  step('availability with the profile', (v) => ({ method: 'POST', path: '/videoDevice/room/availability', body: { regionName: v.region, locationName: v.location, roomName: 'all', from: T.pastFrom, to: T.today, hours: 'business' } })),

  // --- channels --------------------------------------------------------------------------------
  get('/channels'),
  step('create email channel', () => ({ method: 'POST', path: '/channels', body: { name: 'cmp mail', type: 'email', emails: ['ops@example.com'] } }), { save: saveField('id', 'mailChannel') }),
  step('create webhook channel', () => ({ method: 'POST', path: '/channels', body: { name: 'cmp hook', type: 'webhook', url: 'http://127.0.0.1:9/hook' } }), { save: saveField('id', 'hookChannel') }),
  step('create channel again (same name)', () => ({ method: 'POST', path: '/channels', body: { name: 'cmp mail', type: 'email', emails: ['ops@example.com'] } })),
  step('create webhook to a private address', () => ({ method: 'POST', path: '/channels', body: { name: 'cmp private', type: 'webhook', url: 'http://10.0.0.1/hook' } })),
  step('create channel of unknown type', () => ({ method: 'POST', path: '/channels', body: { name: 'cmp sms', type: 'sms' } })),
  step('create email channel without emails', () => ({ method: 'POST', path: '/channels', body: { name: 'cmp none', type: 'email' } })),
  ...bodyAbuse('create channel', 'POST', () => '/channels', () => ({ name: 'cmp h', type: 'email', emails: ['h@example.com'] }), 'name'),
  step('create channel as viewer', () => ({ method: 'POST', path: '/channels', auth: 'viewer', body: { name: 'cmp v', type: 'email', emails: ['v@example.com'] } })),
  get('/channels'),
  step('GET channel', (v) => ({ method: 'GET', path: `/channels/${v.hookChannel}` })),
  ...pathAbuse('GET channel', 'GET', (s) => `/channels/${s}`),
  step('PUT channel', (v) => ({ method: 'PUT', path: `/channels/${v.mailChannel}`, body: { name: 'cmp mail 2', type: 'email', emails: ['ops@example.com', 'more@example.com'] } })),
  step('PUT channel changing type', (v) => ({ method: 'PUT', path: `/channels/${v.mailChannel}`, body: { name: 'cmp mail 2', type: 'webhook', url: 'http://127.0.0.1:9/x' } })),
  step('PUT unknown channel', () => ({ method: 'PUT', path: '/channels/00000000-0000-4000-8000-000000000000', body: { name: 'x', type: 'email', emails: ['x@example.com'] } })),
  step('rotate webhook secret', (v) => ({ method: 'POST', path: `/channels/${v.hookChannel}/rotate-secret` })),
  step('rotate email channel secret', (v) => ({ method: 'POST', path: `/channels/${v.mailChannel}/rotate-secret` })),
  step('test email channel', (v) => ({ method: 'POST', path: `/channels/${v.mailChannel}/test` })),
  step('test unknown channel', () => ({ method: 'POST', path: '/channels/00000000-0000-4000-8000-000000000000/test' })),
  step('deliveries of email channel', (v) => ({ method: 'GET', path: `/channels/${v.mailChannel}/deliveries` }), { page: true }),
  step('deliveries of unknown channel', () => ({ method: 'GET', path: '/channels/00000000-0000-4000-8000-000000000000/deliveries' })),
  ...pagingAbuse('deliveries', (v, q) => ({ method: 'GET', path: `/channels/${v.mailChannel}/deliveries?${q}` })),

  // --- watchers --------------------------------------------------------------------------------
  step('watchers, every page', () => ({ method: 'GET', path: '/watcher/all?limit=1' }), { page: true }),
  step('create watcher', (v) => ({ method: 'POST', path: '/watcher', body: watcher(v, { channelIds: [v.mailChannel] }) }), { save: saveField('id', 'watcher') }),
  step('create watcher on all devices', (v) => ({ method: 'POST', path: '/watcher', body: watcher(v, { allDevices: true, devicesId: [], severity: 4, description: 'compare watcher, every device', inhibitedBy: { condition: 'locationOffline', percent: 50 }, pendingSeconds: 0 }) }), { save: saveField('id', 'watcher2') }),
  step('create watcher with unknown channel', (v) => ({ method: 'POST', path: '/watcher', body: watcher(v, { channelIds: ['00000000-0000-4000-8000-000000000000'] }) })),
  step('create watcher inhibited by an unknown condition', (v) => ({ method: 'POST', path: '/watcher', body: watcher(v, { inhibitedBy: { condition: 'moonPhase' } }) })),
  step('create watcher inhibited at 0 percent', (v) => ({ method: 'POST', path: '/watcher', body: watcher(v, { inhibitedBy: { condition: 'locationOffline', percent: 0 } }) })),
  step('create watcher, bad element', (v) => ({ method: 'POST', path: '/watcher', body: watcher(v, { operations: { type: 'device', operatorType: 'AND', conditions: [{ element: 'status.nope', operator: '==', value: 'x' }] } }) })),
  step('create watcher, severity 9', (v) => ({ method: 'POST', path: '/watcher', body: watcher(v, { severity: 9 }) })),
  step('create watcher, bad email', (v) => ({ method: 'POST', path: '/watcher', body: watcher(v, { emails: ['not-an-email'] }) })),
  ...bodyAbuse('create watcher', 'POST', () => '/watcher', (v) => watcher(v), 'description'),
  step('create watcher as operator outside scope', (v) => ({ method: 'POST', path: '/watcher', auth: 'operator', body: watcher(v, { devicesId: ['VD000002'] }) })),
  step('create watcher as viewer', (v) => ({ method: 'POST', path: '/watcher', auth: 'viewer', body: watcher(v) })),
  step('GET watcher', (v) => ({ method: 'GET', path: `/watcher/${v.watcher}` })),
  ...pathAbuse('GET watcher', 'GET', (s) => `/watcher/${s}`),
  step('PUT watcher', (v) => ({ method: 'PUT', path: `/watcher/${v.watcher}`, body: watcher(v, { severity: 1, description: 'changed', repeatIntervalSeconds: 3600 }) })),
  step('PUT watcher inhibited by its room', (v) => ({ method: 'PUT', path: `/watcher/${v.watcher}`, body: watcher(v, { inhibitedBy: { condition: 'roomOffline' } }) })),
  step('PUT watcher inhibited by a list', (v) => ({ method: 'PUT', path: `/watcher/${v.watcher}`, body: watcher(v, { inhibitedBy: [v.watcher2] }) })),
  step('PUT unknown watcher', (v) => ({ method: 'PUT', path: '/watcher/00000000-0000-4000-8000-000000000000', body: watcher(v) })),
  step('watcher status off', (v) => ({ method: 'PUT', path: `/watcher/${v.watcher}/status`, body: { active: false } })),
  step('watcher status on', (v) => ({ method: 'PUT', path: `/watcher/${v.watcher}/status`, body: { active: true } })),
  step('watcher status, string', (v) => ({ method: 'PUT', path: `/watcher/${v.watcher}/status`, body: { active: 'yes' } })),
  step('status of unknown watcher', () => ({ method: 'PUT', path: '/watcher/00000000-0000-4000-8000-000000000000/status', body: { active: true } })),
  step('watchers, every page (after)', () => ({ method: 'GET', path: '/watcher/all?limit=2' }), { page: true }),
  get('/watcher/all'),
  get('/watcher/all', 'operator'),
  ...pagingAbuse('watchers', (_v, q) => ({ method: 'GET', path: `/watcher/all?${q}` })),
  step('watcher createTable', () => ({ method: 'POST', path: '/watcher/createTable' })),
  get('/filter/dashboards'),
  get('/filter/alarmtypes'),
  step('delete channel in use', (v) => ({ method: 'DELETE', path: `/channels/${v.mailChannel}` })),

  // --- alarms ----------------------------------------------------------------------------------
  step('evaluate now', () => ({ method: 'POST', path: '/alarms/evaluate' })),
  step('evaluate now as viewer', () => ({ method: 'POST', path: '/alarms/evaluate', auth: 'viewer' })),
  step('alarms, every page', () => ({ method: 'GET', path: '/alarms?limit=5' }), { page: true }),
  step('GET /alarms', () => ({ method: 'GET', path: '/alarms' }), {
    save: (a, v) => {
      // the same alarm on both sides, picked from all of them by what is not random: serial, then the watcher's description
      // (a page of alarms raised in the same run is ordered by ids that differ per side)
      const items = (Array.isArray(a.json) ? a.json : []) as { id: string; devicesn: string; description?: string }[];
      const chosen = [...items].sort((x, y) => x.devicesn.localeCompare(y.devicesn) || (x.description ?? '').localeCompare(y.description ?? ''))[0];
      if (chosen) v.alarm = chosen.id;
    },
  }),
  get('/alarms?state=firing&severity=3'),
  get('/alarms?acknowledged=false'),
  get('/alarms?severity=7'),
  get('/alarms?state=asleep'),
  get('/alarms?location=Nowhere'),
  step('alarms of a region', (v) => ({ method: 'GET', path: `/alarms?region=${encodeURIComponent(v.region!)}` })),
  step('alarms of a watcher', (v) => ({ method: 'GET', path: `/alarms?watcherId=${v.watcher2}` })),
  get('/alarms', 'operator'),
  ...pagingAbuse('alarms', (_v, q) => ({ method: 'GET', path: `/alarms?${q}` })),
  step('ack alarm', (v) => ({ method: 'POST', path: `/alarms/${v.alarm}/ack`, body: { comment: 'looking' } })),
  step('ack alarm again', (v) => ({ method: 'POST', path: `/alarms/${v.alarm}/ack`, body: { comment: 'again' } })),
  step('ack alarm with past ackUntil', (v) => ({ method: 'POST', path: `/alarms/${v.alarm}/ack`, body: { ackUntil: '2001-01-01T00:00:00Z' } })),
  step('ack alarm, over-long comment', (v) => ({ method: 'POST', path: `/alarms/${v.alarm}/ack`, body: { comment: LONG } })),
  step('ack alarm, lone surrogate comment', (v) => ({ method: 'POST', path: `/alarms/${v.alarm}/ack`, raw: `{"comment":${LONE_SURROGATE}}` })),
  step('ack unknown alarm', () => ({ method: 'POST', path: '/alarms/00000000-0000-4000-8000-000000000000/ack', body: {} })),
  ...pathAbuse('ack alarm', 'POST', (s) => `/alarms/${s}/ack`, undefined, {}),
  step('unack alarm', (v) => ({ method: 'DELETE', path: `/alarms/${v.alarm}/ack` })),
  step('unack alarm again', (v) => ({ method: 'DELETE', path: `/alarms/${v.alarm}/ack` })),
  step('ack alarm until', (v) => ({ method: 'POST', path: `/alarms/${v.alarm}/ack`, body: { comment: 'until', ackUntil: T.in2h } })),
  step('ack as viewer', (v) => ({ method: 'POST', path: `/alarms/${v.alarm}/ack`, auth: 'viewer', body: {} })),
  get('/alarms?acknowledged=true'),
  step('alarm history, every page', () => ({ method: 'GET', path: '/alarms/history?limit=5' }), { page: true }),
  step('alarm history CSV', () => ({ method: 'GET', path: '/alarms/history?format=csv' })),
  get('/alarms/history?room=x'),
  get(`/alarms/history?from=${T.future}&to=${T.today}`),
  ...pagingAbuse('alarm history', (_v, q) => ({ method: 'GET', path: `/alarms/history?${q}` })),
  step('outbox, every page', () => ({ method: 'GET', path: '/alarms/outbox?limit=3' }), { page: true }),
  get('/alarms/outbox?to=compare@example.com'),
  ...pagingAbuse('outbox', (_v, q) => ({ method: 'GET', path: `/alarms/outbox?${q}` })),
  step('deliveries of email channel (after alarms)', (v) => ({ method: 'GET', path: `/channels/${v.mailChannel}/deliveries?limit=2` }), { page: true }),

  // --- silences and maintenance ----------------------------------------------------------------
  step('silences', () => ({ method: 'GET', path: '/silences' })),
  step('create silence', (v) => ({ method: 'POST', path: '/silences', body: { matchers: { region: v.region, watcherId: v.watcher2 }, endsAt: T.in2h, comment: 'cmp silence' } }), { save: saveField('id', 'silence') }),
  step('create future silence', (v) => ({ method: 'POST', path: '/silences', body: { matchers: { devicesn: v.serial }, startsAt: T.future, endsAt: T.futureEnd, comment: 'cmp future' } })),
  step('create silence ending in the past', () => ({ method: 'POST', path: '/silences', body: { matchers: { region: 'EMEA' }, endsAt: '2001-01-01T00:00:00Z', comment: 'past' } })),
  step('create silence without matchers', () => ({ method: 'POST', path: '/silences', body: { matchers: {}, endsAt: T.in2h, comment: 'none' } })),
  step('create silence of unknown watcher', () => ({ method: 'POST', path: '/silences', body: { matchers: { watcherId: '00000000-0000-4000-8000-000000000000' }, endsAt: T.in2h, comment: 'unknown' } })),
  ...bodyAbuse('create silence', 'POST', () => '/silences', () => ({ matchers: { region: 'EMEA' }, endsAt: T.in2h, comment: 'h' }), 'comment'),
  step('create silence as operator outside scope', () => ({ method: 'POST', path: '/silences', auth: 'operator', body: { matchers: { region: 'EMEA' }, endsAt: T.in2h, comment: 'outside' } })),
  step('silences, every page', () => ({ method: 'GET', path: '/silences?limit=1' }), { page: true }),
  get('/silences?all=true'),
  get('/silences?all=maybe'),
  ...pagingAbuse('silences', (_v, q) => ({ method: 'GET', path: `/silences?${q}` })),
  step('GET silence', (v) => ({ method: 'GET', path: `/silences/${v.silence}` })),
  ...pathAbuse('GET silence', 'GET', (s) => `/silences/${s}`),
  step('alarms after silence', () => ({ method: 'GET', path: '/alarms' })),
  step('end silence', (v) => ({ method: 'DELETE', path: `/silences/${v.silence}` })),
  step('end silence again', (v) => ({ method: 'DELETE', path: `/silences/${v.silence}` })),
  step('maintenance', () => ({ method: 'GET', path: '/maintenance' })),
  step('create maintenance', (v) => ({ method: 'POST', path: '/maintenance', body: { matchers: { region: v.region }, schedule: { days: ['SU'], start: '03:00', durationMinutes: 60, timeZone: 'UTC' }, comment: 'cmp window' } }), { save: saveField('id', 'window') }),
  step('create maintenance, bad day', () => ({ method: 'POST', path: '/maintenance', body: { matchers: { region: 'EMEA' }, schedule: { days: ['XX'], start: '03:00', durationMinutes: 60, timeZone: 'UTC' }, comment: 'bad' } })),
  step('create maintenance, 0 minutes', () => ({ method: 'POST', path: '/maintenance', body: { matchers: { region: 'EMEA' }, schedule: { days: ['SU'], start: '03:00', durationMinutes: 0, timeZone: 'UTC' }, comment: 'bad' } })),
  step('create maintenance, bad zone', () => ({ method: 'POST', path: '/maintenance', body: { matchers: { region: 'EMEA' }, schedule: { days: ['SU'], start: '03:00', durationMinutes: 60, timeZone: 'Mars/Base' }, comment: 'bad' } })),
  ...bodyAbuse('create maintenance', 'POST', () => '/maintenance', () => ({ matchers: { region: 'EMEA' }, schedule: { days: ['SU'], start: '03:00', durationMinutes: 60, timeZone: 'UTC' }, comment: 'h' }), 'comment'),
  step('GET maintenance', (v) => ({ method: 'GET', path: `/maintenance/${v.window}` })),
  ...pathAbuse('GET maintenance', 'GET', (s) => `/maintenance/${s}`),
  step('PUT maintenance', (v) => ({ method: 'PUT', path: `/maintenance/${v.window}`, body: { matchers: { region: v.region }, schedule: { days: ['SA', 'SU'], start: '04:00', durationMinutes: 90, timeZone: 'Europe/Berlin' }, comment: 'cmp window 2' } })),
  step('PUT unknown maintenance', () => ({ method: 'PUT', path: '/maintenance/00000000-0000-4000-8000-000000000000', body: { matchers: { region: 'EMEA' }, schedule: { days: ['SU'], start: '03:00', durationMinutes: 60, timeZone: 'UTC' }, comment: 'x' } })),
  step('maintenance history', (v) => ({ method: 'GET', path: `/maintenance/${v.window}/history` }), { page: true }),
  step('history of unknown maintenance', () => ({ method: 'GET', path: '/maintenance/00000000-0000-4000-8000-000000000000/history' })),
  ...pagingAbuse('maintenance history', (v, q) => ({ method: 'GET', path: `/maintenance/${v.window}/history?${q}` })),
  step('maintenance, every page', () => ({ method: 'GET', path: '/maintenance?limit=1' }), { page: true }),
  ...pagingAbuse('maintenance', (_v, q) => ({ method: 'GET', path: `/maintenance?${q}` })),
  step('DELETE maintenance', (v) => ({ method: 'DELETE', path: `/maintenance/${v.window}` })),
  step('DELETE maintenance again', (v) => ({ method: 'DELETE', path: `/maintenance/${v.window}` })),

  // --- reports ---------------------------------------------------------------------------------
  get('/reports'),
  step('create report', (v) => ({ method: 'POST', path: '/reports', body: { name: 'cmp weekly', period: 'weekly', weekday: 'MO', time: '08:00', timeZone: 'Europe/Berlin', channelIds: [v.mailChannel] } }), { save: saveField('id', 'report') }),
  step('create daily report', (v) => ({ method: 'POST', path: '/reports', body: { name: 'cmp daily', period: 'daily', time: '06:30', timeZone: 'UTC', channelIds: [v.mailChannel], scope: [{ region: v.region }], active: false } })),
  step('create report, unknown channel', () => ({ method: 'POST', path: '/reports', body: { name: 'cmp x', period: 'daily', time: '06:30', timeZone: 'UTC', channelIds: ['00000000-0000-4000-8000-000000000000'] } })),
  step('create report, weekly without weekday', (v) => ({ method: 'POST', path: '/reports', body: { name: 'cmp y', period: 'weekly', time: '06:30', timeZone: 'UTC', channelIds: [v.mailChannel] } })),
  step('create report, 25:00', (v) => ({ method: 'POST', path: '/reports', body: { name: 'cmp z', period: 'daily', time: '25:00', timeZone: 'UTC', channelIds: [v.mailChannel] } })),
  ...bodyAbuse('create report', 'POST', () => '/reports', (v) => ({ name: 'cmp h', period: 'daily', time: '06:30', timeZone: 'UTC', channelIds: [v.mailChannel] }), 'name'),
  step('reports, every page', () => ({ method: 'GET', path: '/reports?limit=1' }), { page: true }),
  ...pagingAbuse('reports', (_v, q) => ({ method: 'GET', path: `/reports?${q}` })),
  step('GET report', (v) => ({ method: 'GET', path: `/reports/${v.report}` })),
  ...pathAbuse('GET report', 'GET', (s) => `/reports/${s}`),
  step('PUT report', (v) => ({ method: 'PUT', path: `/reports/${v.report}`, body: { name: 'cmp weekly 2', period: 'weekly', weekday: 'TU', time: '09:00', timeZone: 'Europe/Berlin', channelIds: [v.mailChannel] } })),
  step('PUT unknown report', (v) => ({ method: 'PUT', path: '/reports/00000000-0000-4000-8000-000000000000', body: { name: 'cmp', period: 'daily', time: '09:00', timeZone: 'UTC', channelIds: [v.mailChannel] } })),
  step('run report', (v) => ({ method: 'POST', path: `/reports/${v.report}/run` })),
  step('run unknown report', () => ({ method: 'POST', path: '/reports/00000000-0000-4000-8000-000000000000/run' })),
  step('outbox after the report', () => ({ method: 'GET', path: '/alarms/outbox?to=ops@example.com' })),
  step('delete channel used by a report', (v) => ({ method: 'DELETE', path: `/channels/${v.hookChannel}` })),
  step('DELETE report', (v) => ({ method: 'DELETE', path: `/reports/${v.report}` })),
  step('DELETE report again', (v) => ({ method: 'DELETE', path: `/reports/${v.report}` })),

  // --- live ------------------------------------------------------------------------------------
  step('live ticket', () => ({ method: 'POST', path: '/live/ticket', body: {} })),
  step('live ticket with filter', (v) => ({ method: 'POST', path: '/live/ticket', body: { filter: { regionName: v.region, locationName: 'all', roomName: 'all' } } })),
  step('live ticket, unknown field', () => ({ method: 'POST', path: '/live/ticket', body: { room: 'x' } })),
  step('live rooms', (v) => ({ method: 'POST', path: '/live/rooms', body: { regionName: v.region, locationName: v.location, roomName: 'all' } })),
  step('live rooms all', () => ({ method: 'POST', path: '/live/rooms', body: ALL })),
  ...bodyAbuse('live rooms', 'POST', () => '/live/rooms', () => ALL, 'roomName'),

  // --- removing what was made ------------------------------------------------------------------
  step('DELETE watcher 2', (v) => ({ method: 'DELETE', path: `/watcher/${v.watcher2}` })),
  step('DELETE watcher', (v) => ({ method: 'DELETE', path: `/watcher/${v.watcher}` })),
  step('DELETE watcher again', (v) => ({ method: 'DELETE', path: `/watcher/${v.watcher}` })),
  step('evaluate after the watchers went', () => ({ method: 'POST', path: '/alarms/evaluate' })),
  step('alarms at the end', () => ({ method: 'GET', path: '/alarms?limit=50' }), { page: true }),
  step('alarm history at the end', () => ({ method: 'GET', path: '/alarms/history?limit=50' }), { page: true }),
  step('DELETE email channel', (v) => ({ method: 'DELETE', path: `/channels/${v.mailChannel}` })),
  step('DELETE webhook channel', (v) => ({ method: 'DELETE', path: `/channels/${v.hookChannel}` })),
  step('DELETE channel again', (v) => ({ method: 'DELETE', path: `/channels/${v.hookChannel}` })),
  step('DELETE location profile', (v) => ({ method: 'DELETE', path: `/locations/${encodeURIComponent(v.region!)}/${encodeURIComponent(v.location!)}/profile` })),
  step('DELETE location profile again', (v) => ({ method: 'DELETE', path: `/locations/${encodeURIComponent(v.region!)}/${encodeURIComponent(v.location!)}/profile` })),
  step('GET deleted location profile', (v) => ({ method: 'GET', path: `/locations/${encodeURIComponent(v.region!)}/${encodeURIComponent(v.location!)}/profile` })),
  step('logout viewer', () => ({ method: 'POST', path: '/api/authService/auth/logout', auth: 'viewer' })),
  get('/api/authService/auth/me', 'viewer'),
  step('logout without a token', () => ({ method: 'POST', path: '/api/authService/auth/logout' })),

  // --- routes that do not exist, methods a route does not take ---------------------------------
  get('/nope'),
  get('/watcher'),
  step('PATCH /intervals', () => ({ method: 'PATCH', path: '/intervals', body: {} })),
  step('DELETE /providers', () => ({ method: 'DELETE', path: '/providers' })),
  step('OPTIONS /intervals from a foreign origin', () => ({ method: 'OPTIONS', path: '/intervals', headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' } })),
  get('/intervals?unknown=1&limit=abc'),

  // --- audit: what every write above left behind -----------------------------------------------
  step('audit, every page', () => ({ method: 'GET', path: '/audit?limit=25', auth: 'admin' }), { page: true }),
  step('audit CSV, every page', () => ({ method: 'GET', path: '/audit?format=csv&limit=40', auth: 'admin' }), { page: true }),
  step('audit of watcher writes', () => ({ method: 'GET', path: '/audit?targetType=watcher&limit=100', auth: 'admin' })),
  step('audit of the key', () => ({ method: 'GET', path: '/audit?actor=api-key&limit=100', auth: 'admin' })),
  step('audit with bad from', () => ({ method: 'GET', path: '/audit?from=yesterday', auth: 'admin' })),
  step('audit as the key', () => ({ method: 'GET', path: '/audit' })),
  ...pagingAbuse('audit', (_v, q) => ({ method: 'GET', path: `/audit?${q}`, auth: 'admin' })),
];
