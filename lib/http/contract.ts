/**
 * The contract of a route: every fact about it, in one place (schemas/<area>.ts). The
 * generator (scripts/generate.ts) derives from it the serverless function, the compiled
 * validator, the handler's binding and the OpenAPI operation; the handler's request and
 * answer types are inferred from its schemas. TypeBox is used for types only here, so no
 * Lambda bundle carries it (docs/adr/0119-typebox-for-schemas-and-types.md).
 */
import type { Static, TSchema } from '@sinclair/typebox';
import type { CompiledValidator } from '#lib/shared/validation';
import type { AccessScope, Permission, Requirement } from '#lib/shared/access';
import type { HttpResult } from './respond';

export type { Requirement } from '#lib/shared/access';

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';

/** One documented answer; `schema` describes its JSON body. */
export interface Answer {
  description: string;
  schema?: TSchema;
  /** Other media types the same status may answer (asked for by the request), each with its body's schema: `{ 'text/csv': Type.String() }`. */
  media?: Record<string, TSchema>;
  /**
   * Headers this answer carries on purpose beyond those every route's answers of its status carry
   * (scripts/openapi.ts adds Retry-After, WWW-Authenticate and the idempotency ones), by name.
   */
  headers?: Record<string, AnswerHeader>;
}

/** One documented answer header: what it says, the schema of its value, and whether every such answer has it. */
export interface AnswerHeader {
  description: string;
  schema: TSchema;
  required?: boolean;
}

/** An IAM statement a function needs beyond the table (serverless `iam.role.statements` shape). */
interface IamStatement {
  Effect: 'Allow' | 'Deny';
  Action: string[];
  Resource: unknown;
  Condition?: Record<string, unknown>;
}

/** Facts of the Lambda function itself, copied into generated/functions.yml. */
export interface FunctionFacts {
  timeout?: number;
  memorySize?: number;
  /** Variables, or a serverless reference such as `${file(./functions/x/env.yml)}`. */
  environment?: Record<string, string> | string;
  /** Retries of an asynchronous invocation (schedules): 0 where a retry could overlap the next run. */
  maximumRetryAttempts?: number;
  /** Where an asynchronous invocation goes once its retries failed (serverless `destinations`). */
  destinations?: { onFailure: { type: 'sns' | 'sqs' | 'function' | 'eventBus'; arn: unknown } };
  /** Extra statements for this function (per-function roles read them; see docs/architecture.md). */
  iam?: IamStatement[];
}

interface RouteRequest {
  /** Path parameters by name; each is required. */
  path?: Record<string, TSchema>;
  /** Query parameters by name; each is optional. */
  query?: Record<string, TSchema>;
  body?: TSchema;
  /** The body may be absent (or empty). */
  bodyOptional?: boolean;
}

export interface RouteContract {
  method: Method;
  /** As API Gateway declares it, without the leading slash: `watcher/{watcherid}`. */
  path: string;
  summary: string;
  /**
   * What the caller needs (DESIGN §5): a permission, `signed-in` (any bearer token) or `public`
   * (the API key only). Enforced by the generated binding; documented in OpenAPI.
   */
  permission: Requirement;
  /**
   * `false`: the route takes no API key (API Gateway lets a request without one through). Only for
   * a caller that cannot send our key, a vendor's webhook, whose signature the handler verifies as
   * its credential; `permission` is then `public`. Every other route needs the key (DESIGN D9).
   */
  apiKey?: false;
  /** The status the spec names for invalid input on this endpoint (also malformed JSON). */
  invalidStatus: 400 | 422;
  request?: RouteRequest;
  /** Answers by status; 401/403 (access), 403 (API key), 413/415 (bodies) and 500 are added for all. */
  responses: Record<number, Answer>;
  function?: FunctionFacts;
  /**
   * A create: takes an `Idempotency-Key` header, and a retry with the same key answers the
   * first result instead of creating again (lib/http/idempotency.ts).
   */
  idempotent?: true;
  /**
   * The audit log (lib/access/audit/routes.ts): by default every route that is not a GET and needs more
   * than `fleet:read` (and is not public) is recorded once it succeeded; this says otherwise, or
   * which authentication event the route is, or where its target is.
   */
  audit?: AuditSpec;
}

/** A function without an HTTP route: a schedule, a queue, a WebSocket route (raw serverless events). */
export interface JobContract extends FunctionFacts {
  summary: string;
  events: Record<string, unknown>[];
  /** A schema the job checks its input against itself (generated/validators/<function>.ts). */
  validates?: TSchema;
}

/** Declares a route; `const` keeps literal statuses, methods and access for the inferred types. */
export const route = <const C extends RouteContract>(contract: C): C => contract;
export const job = <const J extends JobContract>(contract: J): J => contract;

/**
 * Who acts (DESIGN §5): a user or a registered service (a bearer token), or the API key alone
 * (ACCESS_MODE=key). Permissions and scope are read from the store at every request, so a
 * change of a role or a scope applies from the next request on.
 */
export interface Principal {
  kind: 'user' | 'service' | 'api-key';
  /** The username, the service id, or `api-key`. */
  username: string;
  role: string;
  permissions: readonly Permission[];
  /** Empty: unscoped (the whole fleet). */
  scope: AccessScope;
  /** `jti` and `exp` (epoch seconds) of the token presented, for logout; absent for the API key. */
  tokenId?: string;
  expiresAt?: number;
}

/**
 * Resolves the caller of a request or throws Unauthorized (401) / Forbidden (403). `auditLog`: the
 * route is audited (its function may write the log), so a refused token is recorded there.
 */
export type Authenticator = (event: import('aws-lambda').APIGatewayProxyEvent, options?: { auditLog?: AuditLog }) => Promise<Principal>;

/**
 * Where the id of a route's audited target is: a path parameter (or several, for a target named by
 * more than one: each URI-encoded, joined by "/"), a field of the answer, the answer itself, or the caller.
 */
export type AuditTargetId = { path: string | readonly string[] } | { answer: string } | 'answer' | 'caller';

/** What a contract may say about the audit log (lib/access/audit/routes.ts reads it). */
export interface AuditSpec {
  /** Record this route, or not, whatever the rule says. */
  record?: boolean;
  /** The authentication event this route is (its records say this instead of `change`): one of lib/access/audit/types.ts `AUDIT_EVENTS`, checked by the generator. */
  event?: string;
  /** The target's type; by default the area's name in the singular (`watchers` -> `watcher`). */
  target?: string;
  /** Where the target's id is; by default the last path parameter, else the `id` (`roleid`, `username`) of the 2xx answer. */
  targetId?: AuditTargetId;
}

/**
 * An audit record as lib/http hands it on: made and stored by the audit log (lib/access/audit),
 * never read here.
 */
export type AuditEntry = object;

/** What an audited request's record is made of. */
export interface AuditedRequest {
  event: import('aws-lambda').APIGatewayProxyEvent;
  requestId: string;
  path: Record<string, unknown>;
  body: unknown;
  principal: Pick<Principal, 'kind' | 'username'>;
}

/**
 * What the binding of an audited route carries (lib/access/audit/routes.ts `routeAudit` makes it
 * from the route's facts; scripts/generate.ts writes the call).
 */
export interface RouteAudit {
  log: AuditLog;
  /** The route's first 2xx: what a record written with the change says until the answer is known (docs/adr/0550). */
  status?: number;
  /** The record of `request` answering `result`. */
  entryOf(request: AuditedRequest, result: Pick<HttpResult, 'statusCode' | 'body'>): AuditEntry;
  /** Stores a record before the request is answered; when it cannot, logs it and throws 503 saying `unavailable`. */
  appendOrUnavailable(entry: AuditEntry, unavailable: string): Promise<void>;
}

/** Where audit records are stored (lib/access/audit/log.ts); throws when one could not be. */
export interface AuditLog<E extends AuditEntry = AuditEntry> {
  append(entry: E): Promise<void>;
  /**
   * The record of a change about to be made, as writes of the change's own transaction
   * (docs/adr/0550); `complete` rewrites it, same id and time, with what only the answer knows.
   */
  prepare?(entry: E): PreparedAuditRecord<E>;
}

export interface PreparedAuditRecord<E extends AuditEntry = AuditEntry> {
  /** Runs the change with the record riding on its first write; `spent`: the record was written with it. */
  alongside<T>(work: () => Promise<T>): Promise<{ value: T; spent: boolean }>;
  complete(entry: E): Promise<void>;
}

/** One idempotent request: the route, who calls, the key they sent, and what they asked (path, query, body). */
export interface IdempotentRequest {
  route: string;
  caller: string;
  key: string;
  request: unknown;
}

/**
 * A claimed key: the request runs, then its result is kept (`finish`) or the claim let go
 * (`abandon`). `auditPending`: the change landed but its audit record was not stored; a replay
 * stores it (lib/http/idempotency.ts).
 */
export interface IdempotencyClaim {
  finish(result: HttpResult, options?: { auditPending?: boolean }): Promise<void>;
  abandon(): Promise<void>;
}

/** The first result of a request, answered again; `audited` clears a pending audit record once a replay stored it. */
export interface IdempotentReplay {
  replay: HttpResult;
  auditPending?: boolean;
  audited?: () => Promise<void>;
}

/**
 * Keeps the results of idempotent creates: `begin` claims the key and answers the claim, or the
 * first result of the same request to answer again; a key in use by another request, or still
 * running, is thrown as an HttpError (422, 409).
 */
export interface IdempotencyStore {
  begin(request: IdempotentRequest): Promise<IdempotencyClaim | IdempotentReplay>;
}

/**
 * Runs a create once per key (lib/http/idempotency.ts `runIdempotent`): a retry with the same key
 * and request answers the first result; `audit` stores the audit record of a result.
 */
export type RunIdempotent = (
  store: IdempotencyStore,
  context: { route: string; event: import('aws-lambda').APIGatewayProxyEvent; principal: Principal | undefined; request: unknown },
  run: () => Promise<HttpResult>,
  audit?: (result: HttpResult) => Promise<void>,
) => Promise<HttpResult>;

/** What the handler of a route is given at run time; written by the generator (generated/routes/). */
export interface Binding<C extends RouteContract> {
  functionName: string;
  invalidStatus: C['invalidStatus'];
  validate?: CompiledValidator;
  auth?: Authenticator;
  /**
   * Where the results of idempotent creates are kept, and the run that keeps them (set exactly
   * when the contract says `idempotent`): passed in, so that a route without it does not bundle it.
   */
  idempotency?: { store: IdempotencyStore; run: RunIdempotent };
  /** Set exactly when the route is audited (lib/access/audit/routes.ts): what its records say, and where they go. */
  audit?: RouteAudit;
  /** Run before the request is handled, once per container in effect (loads the stage secret of routes that need it). */
  prepare?: () => Promise<void>;
  /** Types only: the contract this binding was generated from. */
  readonly contract?: C;
}

type Params<P> = P extends Record<string, TSchema> ? { [K in keyof P]: Static<P[K]> } : Record<string, never>;
type Query<Q> = Q extends Record<string, TSchema> ? { [K in keyof Q]?: Static<Q[K]> } : Record<string, never>;
type Body<R> = R extends { body: infer B extends TSchema }
  ? R extends { bodyOptional: true }
    ? Static<B> | undefined
    : Static<B>
  : undefined;
type Req<C extends RouteContract> = C['request'] extends RouteRequest ? C['request'] : Record<string, never>;

/** The request parts of a route as its handler sees them, inferred from the contract. */
export interface RequestParts<C extends RouteContract> {
  body: Body<Req<C>>;
  path: Params<Req<C>['path']>;
  query: Query<Req<C>['query']>;
  /** Who calls; absent only on `public` routes. */
  principal: C['permission'] extends 'public' ? undefined : Principal;
}

type MediaBody<A> = A extends { media: infer M extends Record<string, TSchema> } ? Static<M[keyof M]> : never;
type AnswerBody<A> = (A extends { schema: infer S extends TSchema } ? Static<S> : unknown) | MediaBody<A>;
type Responses<C extends RouteContract> = C['responses'];

/**
 * What the handler of a route may answer: one of its 2xx statuses with that status's body. A
 * handler bound to no particular contract (the CORS preflight) may answer anything.
 */
export type AnswerOf<C extends RouteContract> = RouteContract extends C ? HttpResult : {
  [S in keyof Responses<C>]: `${S & number}` extends `2${string}`
    ? { statusCode: S; body: AnswerBody<Responses<C>[S]>; headers?: Record<string, string> }
    : never;
}[keyof Responses<C>];
