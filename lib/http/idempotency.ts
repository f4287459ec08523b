import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes, randomUUID } from 'node:crypto';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { HttpError, Invalid } from '#lib/shared/errors';
import { logger } from '#lib/shared/log';
import { stageSecret } from '#lib/store/cursor';
import { docRow, entity, someTexts, texts } from '#lib/store/entity';
import { expr } from '#lib/store/expression';
import { nowSeconds } from '#lib/store/table';
import type { IdempotencyClaim, IdempotencyStore, IdempotentReplay, IdempotentRequest, Principal, RunIdempotent } from './contract';
import type { HttpResult } from './respond';

/*
 * Idempotent creates (docs/adr/0161-idempotent-creates.md), in one module: the header, the run,
 * where first results are kept and the item that keeps them. A client that
 * sends `Idempotency-Key` on a create and retries with the same key (a timeout, a 503, a lost
 * answer) gets the first result again instead of a second record. The key is claimed before the
 * create runs (a conditional put), so parallel retries create once; the 2xx is kept once the
 * create answered, and a failure lets the claim go, so a retry runs again. Only what the route
 * validated reaches here: a malformed request claims nothing.
 */

const IDEMPOTENCY_HEADER = 'idempotency-key';
/** Visible ASCII, as Stripe and the IETF draft use (UUIDs, ULIDs, random tokens); quotes of a structured-field string are dropped. */
export const IDEMPOTENCY_KEY_PATTERN = '^[\\x21-\\x7e]{1,255}$';
const KEY = new RegExp(IDEMPOTENCY_KEY_PATTERN);

/** The key a request sent, or undefined; a malformed one is the endpoint's invalid input. */
const idempotencyKey = (headers: Record<string, string | undefined>): string | undefined => {
  const sent = headers[IDEMPOTENCY_HEADER];
  if (sent === undefined) return undefined;
  const key = /^"(.*)"$/.exec(sent)?.[1] ?? sent;
  if (KEY.test(key)) return key;
  throw new Invalid('Idempotency-Key must be 1 to 255 visible ASCII characters', [
    { field: `headers.${IDEMPOTENCY_HEADER}`, message: 'Idempotency-Key must be 1 to 255 visible ASCII characters (a UUID, say)' },
  ]);
};

/**
 * Who a key belongs to (keys of different callers never meet): the user or the registered service
 * the token names, each by kind (a user may be named as a service's id, or `api-key`), else the
 * API key that called, by its id (every application has its own, and the key alone acts as the
 * same `api-key` principal for all of them).
 */
const callerOf = (event: APIGatewayProxyEvent, principal: Principal | undefined): string =>
  principal && principal.kind !== 'api-key'
    ? `${principal.kind}:${principal.username}`
    : `api-key:${event.requestContext?.identity?.apiKeyId ?? ''}`;

/**
 * Runs a create once per key: a retry with the same key and request answers the first result.
 * `audit` stores the audit record of a result (lib/http/index.ts) and throws when it could not:
 * the create landed, so its result is kept all the same, marked as not yet audited, and the
 * first replay stores the record before it answers (docs/guide/rules/access.md "A change and its audit record are written in one transaction"). A replay of an audited
 * result writes no second record.
 */
export const runIdempotent: RunIdempotent = async (store, context, run, audit = async () => {}) => {
  const key = idempotencyKey(context.event.headers);
  if (key === undefined) {
    const result = await run();
    await audit(result);
    return result;
  }
  const begun = await store.begin({ route: context.route, caller: callerOf(context.event, context.principal), key, request: context.request });
  if ('replay' in begun) {
    if (begun.auditPending) {
      await audit(begun.replay);
      await begun.audited?.().catch((reason: unknown) => logger.warn('idempotent result not marked audited', { route: context.route, reason: String(reason) }));
    }
    return { ...begun.replay, headers: { ...begun.replay.headers, 'idempotent-replayed': 'true' } };
  }
  let result: HttpResult;
  try {
    result = await run();
  } catch (error) {
    await begun.abandon().catch((reason: unknown) => logger.warn('idempotency claim not released', { route: context.route, reason: String(reason) }));
    throw error;
  }
  // the create landed: keeping its result is best effort, never a failure after the write
  const keep = (auditPending: boolean) =>
    begun.finish(result, { auditPending }).catch((reason: unknown) => logger.warn('idempotent result not kept', { route: context.route, reason: String(reason) }));
  try {
    await audit(result);
  } catch (error) {
    await keep(true);
    throw error;
  }
  await keep(false);
  return result;
};

// Idempotency keys: one item per (route, caller, key) hash.
export const IdempotencyKeyEntity = /* @__PURE__ */ entity({
  type: 'IdempotencyKey',
  key: (id: string) => ({ PK: `IDEMPOTENCY#${id}`, SK: 'IDEMPOTENCY' }),
  fromItem: (item) => ({
    ...texts(item, 'fingerprint', 'token'),
    state: item.state === 'done' ? ('done' as const) : ('pending' as const),
    leaseUntil: Number(item.leaseUntil),
    ...someTexts(item, 'result'),
    ...(item.auditPending === true ? { auditPending: true } : {}),
  }),
});
dataModel: docRow(IdempotencyKeyEntity, { section: 'Idempotency keys', name: 'Idempotency key', PK: '`IDEMPOTENCY#<sha256 of route, caller, key>`', SK: '`IDEMPOTENCY`',
  notes: '`fingerprint` (HMAC of path, query, body), `token` (the claim), `state` `pending`/`done`, `leaseUntil` (epoch ms), `result` (the first 2xx, AES-256-GCM sealed), `auditPending` (the result\'s audit record still to be written by the first replay, for a create made only by batch writes; docs/guide/rules/access.md "A change and its audit record are written in one transaction"), `expiresAt` (24 h, TTL)' });

/** `leaseUntil`: epoch ms a pending claim is its request's; `result`: the sealed first 2xx; `auditPending`: its audit record still to store. */
type KeyRecord = ReturnType<typeof IdempotencyKeyEntity.fromItem>;

/** Claims a key: true when no live record held it (none, expired, a lapsed claim of the same request). */
const claim = async (id: string, record: KeyRecord, expiresAt: number): Promise<boolean> =>
  IdempotencyKeyEntity.put(
    id,
    { ...record, expiresAt },
    expr('attribute_not_exists(PK) OR #expiresAt <= :now OR (#state = :pending AND #leaseUntil <= :nowMs AND #fingerprint = :fingerprint)', {
      now: nowSeconds(),
      pending: 'pending',
      nowMs: Date.now(),
      fingerprint: record.fingerprint,
    }),
  );

/** The live record of a key (strongly consistent: a claim a moment ago is seen), or undefined. */
const read = async (id: string): Promise<KeyRecord | undefined> => {
  const item = await IdempotencyKeyEntity.read(id, { consistent: true });
  return !item || Number(item.expiresAt) <= nowSeconds() ? undefined : IdempotencyKeyEntity.fromItem(item);
};

/** Keeps the result of the claim `token` made (a claim taken over since keeps its own), marked when its audit record is still to be stored. */
const complete = async (id: string, token: string, result: string, auditPending = false): Promise<void> => {
  await IdempotencyKeyEntity.update(id, { set: { state: 'done', result, ...(auditPending ? { auditPending: true } : {}) } }, expr('#token = :token', { token }));
};

/** The kept result's audit record is stored now (a replay stored it). */
const audited = async (id: string): Promise<void> => {
  await IdempotencyKeyEntity.update(id, { remove: ['auditPending'] }, 'attribute_exists(#auditPending)');
};

/** Lets go of the pending claim `token` made, so that a retry runs again. */
const release = async (id: string, token: string): Promise<void> => {
  await IdempotencyKeyEntity.remove(id, expr('#token = :token AND #state = :pending', { token, pending: 'pending' }));
};

/*
 * Where idempotent creates keep their first result. The table holds no key and no readable answer: the item is named by a
 * hash of (route, caller, key), the request by an HMAC of what it asked, and the answer (which may
 * carry a secret shown once: a webhook's, a service's) is sealed with AES-256-GCM under a key
 * derived from the stage's secret and the client's Idempotency-Key.
 */

/** How long a key answers its first result. */
const KEY_TTL_SECONDS = 24 * 60 * 60;
/** How long a claim is its request's: longer than any route's timeout (29 s), then a retry may run again. */
const CLAIM_LEASE_MS = 60_000;

const recordId = ({ route, caller, key }: IdempotentRequest) => createHash('sha256').update(`${route}\n${caller}\n${key}`).digest('hex');
const fingerprintOf = ({ route, request }: IdempotentRequest) =>
  createHmac('sha256', stageSecret()).update(`idempotency-request\n${route}\n${JSON.stringify(request)}`).digest('base64url');
const sealKey = (id: string, key: string) => createHmac('sha256', stageSecret()).update(`idempotency-result\n${id}\n${key}`).digest();

const seal = (id: string, key: string, result: HttpResult): string => {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', sealKey(id, key), iv);
  const sealed = Buffer.concat([cipher.update(JSON.stringify(result), 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64');
};

const open = (id: string, key: string, sealed: string): HttpResult => {
  const bytes = Buffer.from(sealed, 'base64');
  const decipher = createDecipheriv('aes-256-gcm', sealKey(id, key), bytes.subarray(0, 12));
  decipher.setAuthTag(bytes.subarray(12, 28));
  return JSON.parse(Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString('utf8')) as HttpResult;
};

const reused = () =>
  new HttpError(422, 'This Idempotency-Key was used for a different request; send a new key for a new request', {
    details: [{ field: 'headers.idempotency-key', message: 'Idempotency-Key was already used with another body, path or query' }],
  });
const inProgress = () =>
  new HttpError(409, 'A request with this Idempotency-Key is still being processed; retry shortly', { headers: { 'retry-after': '1' } });

const begin = async (request: IdempotentRequest): Promise<IdempotencyClaim | IdempotentReplay> => {
  const id = recordId(request);
  const fingerprint = fingerprintOf(request);
  const token = randomUUID();
  const expiresAt = Math.floor(Date.now() / 1000) + KEY_TTL_SECONDS;
  // a record that vanishes between the failed claim and the read (expired, released) is claimed again
  for (let attempt = 0; attempt < 3; attempt++) {
    if (await claim(id, { fingerprint, token, state: 'pending', leaseUntil: Date.now() + CLAIM_LEASE_MS }, expiresAt)) {
      return {
        finish: async (result, options) => {
          if (result.statusCode >= 200 && result.statusCode < 300) await complete(id, token, seal(id, request.key, result), options?.auditPending === true);
          else await release(id, token);
        },
        abandon: () => release(id, token),
      };
    }
    const held = await read(id);
    if (!held) continue;
    if (held.fingerprint !== fingerprint) throw reused();
    if (held.state === 'done' && held.result) {
      const replay = open(id, request.key, held.result);
      return held.auditPending ? { replay, auditPending: true, audited: () => audited(id) } : { replay };
    }
    throw inProgress();
  }
  throw inProgress();
};

export const idempotency: IdempotencyStore = { begin };
