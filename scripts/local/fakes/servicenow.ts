/**
 * A local ServiceNow instance for the ServiceNow channel (lib/notify/servicenow): the Table API
 * subset the channel calls on the incident table (create, find by an encoded query, read,
 * update), basic auth and OAuth client credentials (`POST /oauth_token.do`), with the generic
 * faults of every fake (`POST /_fake/faults`: `rate429`, `burst5xx`, `down`, `slowMs`).
 * `GET /_fake/events` answers every Table API request it took (method, path, query, body,
 * status); `GET /_fake/incidents` the incidents it holds, each with its work notes;
 * `DELETE /_fake/events` forgets both. SERVICENOW_FAKE_PORT fixes its port.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { bearer, json, startFake, type FakeServer, type Faults, type Reply } from './server';

/** The local credentials of the fake: not secrets, they open nothing but the fake. */
export const SERVICENOW_FAKE_CREDENTIALS = { username: 'fake-servicenow-user', password: 'fake-servicenow-password', clientId: 'fake-servicenow-client', clientSecret: 'fake-servicenow-secret' } as const;

export interface RecordedRequest {
  at: string;
  method: string;
  path: string;
  query: Record<string, string>;
  body?: unknown;
  status: number;
}

export type Incident = Record<string, string> & { sys_id: string; number: string; state: string };

export interface ServiceNowFake extends FakeServer {
  events: RecordedRequest[];
  /** By sys_id: each incident's record and its work notes (a journal, not a field). */
  incidents: Map<string, { record: Incident; notes: string[] }>;
}

const TABLE = '/api/now/table/incident';
/** How long an issued token is taken (ServiceNow's default: 30 minutes). */
const TOKEN_TTL_SECONDS = 1800;

/** The conditions of an encoded query the fake understands: `field=value` joined by `^` (ORDERBY terms are ignored). */
const conditionsOf = (query: string): [string, string][] =>
  query
    .split('^')
    .filter((term) => term !== '' && !term.startsWith('ORDERBY'))
    .map((term) => {
      const at = term.indexOf('=');
      return at < 0 ? [term, ''] : [term.slice(0, at), term.slice(at + 1)];
    });

export const startServiceNowFake = async (options: { port?: number; faults?: Partial<Faults>; credentials?: typeof SERVICENOW_FAKE_CREDENTIALS } = {}): Promise<ServiceNowFake> => {
  const credentials = options.credentials ?? SERVICENOW_FAKE_CREDENTIALS;
  const tokens = new Map<string, number>();
  const events: RecordedRequest[] = [];
  const incidents = new Map<string, { record: Incident; notes: string[] }>();
  let numbers = 10_000;

  const authorized = (req: IncomingMessage): boolean => {
    const header = req.headers.authorization ?? '';
    const basic = /^Basic (.+)$/.exec(header)?.[1];
    if (basic) return Buffer.from(basic, 'base64').toString('utf8') === `${credentials.username}:${credentials.password}`;
    const token = bearer(req);
    const expires = token === undefined ? undefined : tokens.get(token);
    return expires !== undefined && expires > Date.now();
  };

  const shown = (record: Incident, fields?: string) => (fields ? Object.fromEntries(fields.split(',').map((field) => [field, record[field] ?? ''])) : record);

  const table = (req: IncomingMessage, url: URL, body: string): Reply => {
    if (!authorized(req)) return json(401, { error: { message: 'User Not Authenticated', detail: 'Required to provide Auth information' }, status: 'failure' });
    const rest = url.pathname.slice(TABLE.length);
    const fields = url.searchParams.get('sysparm_fields') ?? undefined;
    if (rest === '' && req.method === 'GET') {
      const conditions = conditionsOf(url.searchParams.get('sysparm_query') ?? '');
      const limit = Number(url.searchParams.get('sysparm_limit') ?? 10_000) || 10_000;
      const found = [...incidents.values()].filter(({ record }) => conditions.every(([field, value]) => (record[field] ?? '') === value)).slice(0, limit);
      return json(200, { result: found.map(({ record }) => shown(record, fields)) });
    }
    if (rest === '' && req.method === 'POST') {
      const input = parse(body);
      if (!input) return json(400, { error: { message: 'Invalid JSON body' }, status: 'failure' });
      const sysId = randomBytes(16).toString('hex');
      const now = new Date().toISOString();
      const { work_notes: note, ...fieldsIn } = input;
      const record: Incident = {
        ...stringified(fieldsIn),
        sys_id: sysId,
        number: `INC${String(++numbers).padStart(7, '0')}`,
        state: String(input.state ?? 1),
        sys_created_on: now,
        sys_updated_on: now,
      };
      incidents.set(sysId, { record, notes: typeof note === 'string' && note !== '' ? [note] : [] });
      return json(201, { result: shown(record) });
    }
    const sysId = /^\/([0-9a-f]{32})$/.exec(rest)?.[1];
    const incident = sysId === undefined ? undefined : incidents.get(sysId);
    if (!incident) return json(404, { error: { message: 'No Record found', detail: 'Record doesn\'t exist or ACL restricts the record retrieval' }, status: 'failure' });
    if (req.method === 'GET') return json(200, { result: shown(incident.record, fields) });
    if (req.method === 'PATCH' || req.method === 'PUT') {
      const input = parse(body);
      if (!input) return json(400, { error: { message: 'Invalid JSON body' }, status: 'failure' });
      const { work_notes: note, ...fieldsIn } = input;
      Object.assign(incident.record, stringified(fieldsIn), { sys_updated_on: new Date().toISOString() });
      if (typeof note === 'string' && note !== '') incident.notes.push(note);
      return json(200, { result: shown(incident.record) });
    }
    return json(405, { error: { message: `Method ${req.method} not supported` }, status: 'failure' });
  };

  const token = (req: IncomingMessage, body: string): Reply => {
    if (req.method !== 'POST') return json(405, { error: 'invalid_request' });
    const form = new URLSearchParams(body);
    if (form.get('grant_type') !== 'client_credentials') return json(400, { error: 'unsupported_grant_type' });
    if (form.get('client_id') !== credentials.clientId || form.get('client_secret') !== credentials.clientSecret) return json(401, { error: 'access_denied', error_description: 'access_denied' });
    const issued = randomUUID();
    tokens.set(issued, Date.now() + TOKEN_TTL_SECONDS * 1000);
    return json(200, { access_token: issued, token_type: 'Bearer', expires_in: TOKEN_TTL_SECONDS, scope: 'useraccount' });
  };

  const server = await startFake({
    name: 'servicenow',
    isToken: (path) => path === '/oauth_token.do',
    trackingHeader: 'x-transaction-id',
    ...(options.faults ? { faults: options.faults } : {}),
    ...(options.port === undefined ? {} : { port: options.port }),
    handle: (req, url, body) => {
      if (url.pathname === '/oauth_token.do') return token(req, body);
      if (url.pathname !== TABLE && !url.pathname.startsWith(`${TABLE}/`)) return json(404, { error: { message: `no route ${url.pathname}` } });
      const reply = table(req, url, body);
      events.push({
        at: new Date().toISOString(),
        method: req.method ?? 'GET',
        path: url.pathname,
        query: Object.fromEntries(url.searchParams),
        ...(body === '' ? {} : { body: parse(body) ?? body }),
        status: reply.status,
      });
      return reply;
    },
    control: (req, url) => {
      if (url.pathname === '/_fake/events' && req.method === 'GET') return json(200, { events });
      if (url.pathname === '/_fake/events' && req.method === 'DELETE') {
        events.length = 0;
        incidents.clear();
        return json(200, { events });
      }
      if (url.pathname === '/_fake/incidents' && req.method === 'GET') {
        return json(200, { incidents: [...incidents.values()].map(({ record, notes }) => ({ ...record, work_notes: notes })) });
      }
      return undefined;
    },
  });
  return { ...server, events, incidents };
};

const parse = (body: string): Record<string, unknown> | undefined => {
  try {
    const value: unknown = JSON.parse(body);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
};

/** The Table API stores and answers every field as a string. */
const stringified = (input: Record<string, unknown>): Record<string, string> =>
  Object.fromEntries(Object.entries(input).map(([field, value]) => [field, typeof value === 'string' ? value : JSON.stringify(value)]));
