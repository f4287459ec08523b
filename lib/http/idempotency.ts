import type { APIGatewayProxyEvent } from 'aws-lambda';
import { Invalid } from '#lib/shared/errors';
import { logger } from '#lib/shared/log';
import type { IdempotencyStore, Principal } from './contract';
import type { HttpResult } from './respond';

/*
 * Idempotent creates (docs/adr/0161-idempotent-creates.md). A client that
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
export const runIdempotent = async (
  store: IdempotencyStore,
  context: { route: string; event: APIGatewayProxyEvent; principal: Principal | undefined; request: unknown },
  run: () => Promise<HttpResult>,
  audit: (result: HttpResult) => Promise<void> = async () => {},
): Promise<HttpResult> => {
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
