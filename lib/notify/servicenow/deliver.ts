import { createHash } from 'node:crypto';
import type { AttemptOutcome } from '../pure/retry';
import type { Digest, ServiceNowChannel } from '../types';
import { instanceRequest, type InstanceAnswer } from './client';
import { lookupQuery, requestFor, stepOf } from './pure/incident';

/** A ServiceNow channel as a delivery needs it: where, and with what (its stored credential). */
export type ServiceNowTarget = ServiceNowChannel & { id: string; secret: string };

interface Options {
  /** Epoch ms: no request starts after it (the delivery is then retried). */
  until: number;
  allowLocal: boolean;
  /** Each request's own limit. */
  timeoutMs: number;
}

/** Tokens of OAuth client credentials, kept until shortly before they expire: one token request per channel and warm Lambda, not per delivery. */
const tokens = new Map<string, { token: string; expiresAt: number }>();
const TOKEN_MARGIN_MS = 60_000;
/** A token is asked for again at least daily, whatever lifetime the instance claims for it. */
const MAX_TOKEN_MS = 24 * 60 * 60_000;
/** A bearer token as RFC 6750 writes it (b64token), at most 8 KiB. */
const BEARER_TOKEN = /^[A-Za-z0-9\-._~+/]{1,8192}=*$/;
const tokenKey = (target: ServiceNowTarget) => createHash('sha256').update(`${target.instanceUrl}\u0000${target.auth === 'oauth' ? target.clientId : ''}\u0000${target.secret}`).digest('hex');

type Failure = Exclude<AttemptOutcome, { kind: 'sent' | 'unchanged' }>;
const ok = (answer: InstanceAnswer | Failure): answer is InstanceAnswer => answer.kind === 'answered' && answer.status >= 200 && answer.status < 300;
/** An answer that is not a success, as the attempt's outcome (its status decides: 429 and 5xx are retried, another 4xx fails). */
const failure = (answer: InstanceAnswer | Failure): Failure =>
  answer.kind === 'answered' ? { kind: 'answered', status: answer.status, ...(answer.retryAfterSeconds === undefined ? {} : { retryAfterSeconds: answer.retryAfterSeconds }) } : answer;

/**
 * Tells a ServiceNow instance what a digest says, alarm by alarm, through its Table API: a raise
 * opens the alarm's incident, an acknowledgement moves it to In Progress with a work note, a
 * clear resolves it (pure/incident.ts). Each alarm's incident is looked up first, so a retried
 * delivery (a 429, a 5xx, a lost answer, a second run) never opens a second one. The first
 * answer that is not a success ends the attempt as its outcome; the retry starts over, and what
 * was done already is found done.
 */
export const deliverToServiceNow = async (digest: Digest, target: ServiceNowTarget, options: Options): Promise<AttemptOutcome> => {
  let last: number | undefined;
  const call = async (method: 'GET' | 'POST' | 'PATCH', path: string, body?: Record<string, unknown>): Promise<InstanceAnswer | Failure> => {
    if (Date.now() >= options.until) return { kind: 'timeout' };
    const auth = await authorization(target, options);
    if (typeof auth !== 'string') return auth;
    const answer = await instanceRequest({
      method,
      url: `${target.instanceUrl}${path}`,
      headers: { authorization: auth },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      timeoutMs: Math.min(options.timeoutMs, options.until - Date.now()),
      allowLocal: options.allowLocal,
    });
    // a refused token is dropped, so the retry asks for a new one
    if (answer.kind === 'answered' && answer.status === 401) tokens.delete(tokenKey(target));
    if (answer.kind === 'answered') last = answer.status;
    return answer;
  };

  if (digest.type === 'test') {
    const answer = await call('GET', '/api/now/table/incident?sysparm_limit=1&sysparm_fields=sys_id');
    return ok(answer) ? { kind: 'answered', status: answer.status } : failure(answer);
  }
  for (const alarm of digest.alarms) {
    const step = stepOf(digest.type, alarm, digest.step);
    if (!step) continue;
    const query = new URLSearchParams({ sysparm_query: lookupQuery(alarm), sysparm_fields: 'sys_id,number,state', sysparm_limit: '1' });
    const found = await call('GET', `/api/now/table/incident?${query}`);
    if (!ok(found)) return failure(found);
    // only a Table API list says whether the incident exists: taking anything else (a login page, a
    // proxy's answer, a body too large to read) as "none" would open a second incident on each try
    if (!isList(found.json)) return { kind: 'unreachable', reason: LOOKUP_WITHOUT_LIST };
    const request = requestFor(step, firstRecord(found.json), alarm, digest.watcher);
    if (!request) continue;
    const path = request.method === 'POST' ? '/api/now/table/incident' : `/api/now/table/incident/${encodeURIComponent(request.sysId)}`;
    const written = await call(request.method, path, request.body);
    if (!ok(written)) return failure(written);
  }
  return last === undefined ? { kind: 'unchanged' } : { kind: 'answered', status: last };
};

const LOOKUP_WITHOUT_LIST = 'the instance answered its incident lookup without a JSON `result` list (not its Table API: a login page, a proxy, or a body over 256 KiB)';

/** Whether an answer is a Table API list (`{result: [...]}`), the one answer a lookup is read from. */
const isList = (json: unknown): boolean => Array.isArray((json as { result?: unknown } | undefined)?.result);

/** The first incident of a Table API list answer (`{result: [{sys_id, state}]}`), or undefined when none. */
const firstRecord = (json: unknown): { sys_id: string; state: number } | undefined => {
  const result = (json as { result?: unknown } | undefined)?.result;
  const first = Array.isArray(result) ? (result[0] as { sys_id?: unknown; state?: unknown } | undefined) : undefined;
  if (!first || typeof first.sys_id !== 'string') return undefined;
  // the Table API answers every field as a string ("1")
  const state = Number(first.state);
  return { sys_id: first.sys_id, state: Number.isFinite(state) ? state : 1 };
};

/** The Authorization header: basic, or a bearer token of the OAuth client credentials (`POST /oauth_token.do`); an outcome when no token was had. */
const authorization = async (target: ServiceNowTarget, options: Options): Promise<string | Failure> => {
  if (target.auth === 'basic') return `Basic ${Buffer.from(`${target.username}:${target.secret}`).toString('base64')}`;
  const key = tokenKey(target);
  const held = tokens.get(key);
  if (held && held.expiresAt > Date.now()) return `Bearer ${held.token}`;
  const answer = await instanceRequest({
    method: 'POST',
    url: `${target.instanceUrl}/oauth_token.do`,
    headers: {},
    form: true,
    body: new URLSearchParams({ grant_type: 'client_credentials', client_id: target.clientId, client_secret: target.secret }).toString(),
    timeoutMs: Math.min(options.timeoutMs, options.until - Date.now()),
    allowLocal: options.allowLocal,
  });
  if (!ok(answer)) return failure(answer);
  const { access_token: token, expires_in: expiresIn } = (answer.json ?? {}) as { access_token?: unknown; expires_in?: unknown };
  // a 2xx without a token is the instance's mistake, not ours: tried again later
  if (typeof token !== 'string' || token === '') return { kind: 'unreachable', reason: 'the instance answered its token request without an access_token' };
  // nor is kept a token no Authorization header can carry (a line break, a space): it would fail every request until it expired
  if (!BEARER_TOKEN.test(token)) return { kind: 'unreachable', reason: 'the instance answered its token request with an access_token that is no bearer token' };
  const seconds = Number(expiresIn);
  const lifetimeMs = Number.isFinite(seconds) && seconds > 0 ? Math.min(seconds * 1000, MAX_TOKEN_MS) : 1_800_000;
  tokens.set(key, { token, expiresAt: Date.now() + lifetimeMs - TOKEN_MARGIN_MS });
  return `Bearer ${token}`;
};
