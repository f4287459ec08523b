import middy, { type MiddlewareObj } from '@middy/core';
import validator from '@middy/validator';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { logger } from '#lib/log';
import { recordRequest } from '#lib/observability/metrics';
import { tracing } from '#lib/observability/tracing';
import { parseJsonBody } from './body';
import { corsHeaders } from './cors';
import { errorResult, json, type HttpResult } from './respond';
import { requireWellFormed } from './unicode';
import type { CompiledValidator } from './validation';

export type { HttpResult } from './respond';
export type { CompiledValidator } from './validation';

export interface HttpOptions {
  /** Event validator compiled at build time from schemas/ (see scripts/build-schemas.ts). */
  validate?: CompiledValidator;
  /** The status the spec names for invalid input on this endpoint: 422 (devices, intervals) or 400. */
  invalidStatus?: 400 | 422;
  /**
   * Who may call: an authenticator from lib/auth (bearer token, role). Runs before validation,
   * so an anonymous caller gets 401/403, never a 400. Passed in rather than imported here so
   * that bundles of public endpoints carry no token code.
   */
  auth?: Authenticator;
}

/** The signed-in caller, as the bearer token and the user record say. */
export interface Principal {
  username: string;
  role: string;
  /** `jti` and `exp` (epoch seconds) of the token presented, for logout. */
  tokenId: string;
  expiresAt: number;
}

/** Resolves the caller of a request or throws Unauthorized (401) / Forbidden (403). */
export type Authenticator = (event: APIGatewayProxyEvent) => Promise<Principal>;

export interface HttpRequest<Body, Path, Query> {
  body: Body;
  path: Path;
  query: Query;
  headers: Record<string, string | undefined>;
  requestId: string;
  event: APIGatewayProxyEvent;
  /** Set on endpoints declared with `auth`. */
  principal: Principal | undefined;
}

type Handler<Body, Path, Query> = (request: HttpRequest<Body, Path, Query>) => Promise<HttpResult>;

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

export const http = <Body = undefined, Path = Record<string, string>, Query = Record<string, string | undefined>>(
  options: HttpOptions,
  handle: Handler<Body, Path, Query>,
) => {
  const chain = middy<APIGatewayProxyEvent, APIGatewayProxyResult>().use(tracing()).use(lifecycle(options.invalidStatus ?? 400));
  const principals = new WeakMap<object, Principal>();
  const { auth } = options;
  if (auth) chain.use({ before: async ({ event }) => void principals.set(event, await auth(event)) });
  chain.use({ before: ({ event }) => requireWellFormed(event) });
  if (options.validate) chain.use(validator({ eventSchema: options.validate }));
  return chain.handler(async (event, context) => {
    const result = await handle({
      body: event.body as Body,
      path: (event.pathParameters ?? {}) as Path,
      query: (event.queryStringParameters ?? {}) as Query,
      headers: event.headers,
      requestId: event.requestContext?.requestId ?? context.awsRequestId,
      event,
      principal: principals.get(event),
    });
    return json(result);
  });
};
