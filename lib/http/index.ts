import middy, { type MiddlewareObj } from '@middy/core';
import validator from '@middy/validator';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { logger } from '#lib/shared/log';
import { recordRequest } from '#lib/shared/metrics';
import { tracing } from '#lib/shared/tracing';
import { parseJsonBody } from './body';
import { corsHeaders } from './cors';
import { errorResult, json, withinAnswerLimit, type HttpResult } from './respond';
import type { AnswerOf, AuditEntry, Binding, Principal, RequestParts, RouteContract } from './contract';
import { requireWellFormed } from './unicode';

export type { CompiledValidator } from '#lib/shared/validation';
export type { Authenticator, Binding, Principal } from './contract';
export { rawBodyOf } from './body';

interface HttpRequest<C extends RouteContract> extends RequestParts<C> {
  headers: Record<string, string | undefined>;
  requestId: string;
  event: APIGatewayProxyEvent;
  /** The Lambda context (`getRemainingTimeInMillis` for handlers that budget their time). */
  context: Context;
}

export type Handler<C extends RouteContract> = (request: HttpRequest<C>) => Promise<AnswerOf<C>>;

interface Internal {
  startedAt: number;
}

const route = (event: APIGatewayProxyEvent) => `${event.httpMethod} ${event.resource}`;

/**
 * Owns everything around a handler: header normalisation, JSON body parsing, size limit,
 * error mapping to JSON and one structured log line per request. Runs first and last.
 */
const lifecycle = (invalidStatus: number): MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult, Error, Context> => {
  const startedAt = new WeakMap<object, Internal>();
  const done = (event: APIGatewayProxyEvent, context: Context, statusCode: number) => ({
    route: route(event),
    status: statusCode,
    latencyMs: Date.now() - (startedAt.get(event)?.startedAt ?? Date.now()),
    requestId: event.requestContext?.requestId ?? context.awsRequestId,
  });
  return {
    before: async (request) => {
      startedAt.set(request.event, { startedAt: Date.now() });
      logger.addContext(request.context);
      await parseJsonBody(request);
    },
    after: async (request) => {
      const fields = done(request.event, request.context, request.response?.statusCode ?? 200);
      logger.info('request', fields);
      await recordRequest({ resource: request.event.resource, status: fields.status, latencyMs: fields.latencyMs });
      withCors(request.event, request.response);
    },
    onError: async (request) => {
      const { result, known, fault } = errorResult(request.error, invalidStatus);
      const fields = done(request.event, request.context, result.statusCode);
      // one line per request: a store fault says which (ECONNREFUSED, ThrottlingException, ...)
      if (fault) logger.warn('request', { ...fields, reason: `store ${fault.fault}: ${fault.reason}` });
      else if (known) logger.info('request', { ...fields, reason: (result.body as { message?: string })?.message });
      else logger.error('request failed', { ...fields, error: request.error });
      await recordRequest({ resource: request.event.resource, status: fields.status, latencyMs: fields.latencyMs });
      request.response = json(result);
      withCors(request.event, request.response);
    },
  };
};

/** Every answer, errors included, carries the CORS headers its origin is entitled to (lib/http/cors.ts). */
const withCors = (event: APIGatewayProxyEvent, response: APIGatewayProxyResult | null | undefined) => {
  if (response) response.headers = { ...response.headers, ...corsHeaders(event.headers?.origin) };
};

/**
 * The handler of a route: `binding` is the route's generated module (generated/routes/<function>),
 * which carries the compiled validator, the invalid-input status and the authenticator its
 * contract names; request and answer types follow from the contract.
 */
export const http = <C extends RouteContract>(binding: Binding<C>, handle: Handler<C>) => {
  const chain = middy<APIGatewayProxyEvent, APIGatewayProxyResult>().use(tracing()).use(lifecycle(binding.invalidStatus));
  const principals = new WeakMap<object, Principal>();
  const { auth, prepare, audit } = binding;
  if (prepare) chain.use({ before: () => prepare() });
  if (auth) chain.use({ before: async ({ event }) => void principals.set(event, await auth(event, audit ? { auditLog: audit.log } : {})) });
  chain.use({ before: ({ event }) => requireWellFormed(event) });
  if (binding.validate) chain.use(validator({ eventSchema: binding.validate }));
  return chain.handler(async (event, context) => {
    const parts = {
      body: event.body,
      path: event.pathParameters ?? {},
      query: event.queryStringParameters ?? {},
      principal: principals.get(event),
    } as unknown as RequestParts<C>;
    const requestId = event.requestContext?.requestId ?? context.awsRequestId;
    const run = async () =>
      (await handle({
        ...parts,
        headers: event.headers,
        requestId,
        event,
        context,
      })) as HttpResult;
    const { idempotency } = binding;
    const principal = parts.principal as Principal | undefined;
    const request = { path: parts.path, query: parts.query, body: parts.body };
    const audited = { event, requestId, path: parts.path as Record<string, unknown>, body: parts.body, principal: principal ?? KEY_ACTOR };
    // the record rides on the change's own write (a transaction: both or neither; docs/adr/0550)
    let prepared: { complete(entry: AuditEntry): Promise<void>; predicted: AuditEntry } | undefined;
    let spent = false;
    const change = async (): Promise<HttpResult> => {
      if (!audit?.log.prepare) return run();
      const predicted = audit.entryOf(audited, { statusCode: audit.status ?? 200, body: undefined });
      const record = audit.log.prepare(predicted);
      prepared = { complete: record.complete, predicted };
      const done = await record.alongside(run);
      spent = done.spent;
      return done.value;
    };
    const record = async (result: HttpResult) => {
      if (!audit || result.statusCode < 200 || result.statusCode >= 300) return;
      const entry = audit.entryOf(audited, result);
      if (spent && prepared) {
        // stored with the change; what only the answer knows (a created id, the status) completes it, same id
        if (JSON.stringify(entry) !== JSON.stringify(prepared.predicted)) {
          await prepared.complete(entry).catch((reason: unknown) => logger.warn('audit record not completed', { audit: entry, reason: String(reason) }));
        }
        return;
      }
      // a change made by no single-item write (batches, table set-ups, a test mail): stored before the 2xx, else 503 (docs/guide/rules/access.md "A change and its audit record are written in one transaction")
      await audit.appendOrUnavailable(entry, CHANGE_UNRECORDED);
    };
    const result = idempotency ? await idempotency.run(idempotency.store, { route: binding.functionName, event, principal, request }, change, record) : await change();
    if (!idempotency) await record(result);
    return withinAnswerLimit(json(result));
  });
};

const CHANGE_UNRECORDED = 'The change was made, but its audit record could not be stored; retry shortly (a create with the same Idempotency-Key)';

/** The actor of an audited route that names no principal (a public one): the API key. */
const KEY_ACTOR = { kind: 'api-key', username: 'api-key' } as const;

