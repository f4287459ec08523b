import type { APIGatewayProxyEvent } from 'aws-lambda';
import { ServiceUnavailable } from '#lib/shared/errors';
import { logger } from '#lib/shared/log';
import { cutBetweenCharacters } from '#lib/shared/text';

/*
 * The audit log's vocabulary (DESIGN §5; docs/adr/0211): what one record says. Shared by the rule
 * of the routes recorded (routes.ts, which the HTTP middleware calls through the binding), the
 * authentication code that records its events (log.ts recordAuthEvent) and the store (repository.ts). A record names
 * fields, never their values: nothing a client sent as a value, and so no secret or password,
 * can reach it.
 */

/** A successful change (any audited route), or one of the authentication events. */
export const AUDIT_EVENTS = [
  'change',
  'signin-succeeded',
  'signin-failed',
  'signin-locked',
  'logout',
  'password-changed',
  'token-revoked',
  'service-token-issued',
  'service-token-refused',
] as const;
export type AuditEvent = (typeof AUDIT_EVENTS)[number];
/** The events a route may declare itself as (contracts: `audit: { event }`); sign-in events are recorded by the sign-in code. */
export type AuthEvent = Exclude<AuditEvent, 'change'>;

export const ACTOR_KINDS = ['user', 'service', 'api-key'] as const;
interface AuditActor {
  kind: (typeof ACTOR_KINDS)[number];
  /** The username, the service id, or `api-key`. */
  id: string;
}

export interface AuditTarget {
  /** What was acted on: `watcher`, `user`, `channel`, … */
  type: string;
  /** Which one, when the route names one (a path parameter, or the id a create answered). */
  id?: string;
}

/** Where a request came from, as API Gateway saw it. */
interface RequestFacts {
  /** The route, e.g. `POST /watcher/{watcherid}`. */
  action: string;
  requestId: string;
  sourceIp: string;
  userAgent: string;
}

/** What is recorded about one event (lib/access/audit/log.ts adds the id, the time and the retention). */
export interface AuditEntry extends RequestFacts {
  event: AuditEvent;
  actor: AuditActor;
  target: AuditTarget;
  /** The status answered (the change's 2xx; 401/429 of a refused sign-in). */
  status: number;
  /** Names of the body fields the request set, sorted; never a value. */
  fields: string[];
  /** Why a token was refused (token-revoked): `revoked`, `superseded`, `inactive`, `gone`. */
  reason?: string;
}

/** A stored record: newest first by `at`, then `id`. */
export interface AuditRecord extends AuditEntry {
  id: string;
  /** When, ISO 8601 with milliseconds (UTC). */
  at: string;
}

/** The filters of GET /audit: each one is a key of the log or a condition within one. */
export interface AuditFilter {
  actor?: string;
  actorKind?: AuditActor['kind'];
  action?: string;
  event?: AuditEvent;
  targetType?: string;
  targetId?: string;
  /** Inclusive bounds, ISO 8601 (UTC). */
  from?: string;
  to?: string;
}

/**
 * A user agent is the client's free text: kept on one visible line (control characters, line and
 * paragraph separators, format characters such as bidirectional overrides, and lone surrogates
 * become spaces) and bounded, cut between characters, never inside a surrogate pair: a record's
 * text stays well-formed Unicode, which its store and its CSV need.
 */
const USER_AGENT_MAX = 512;
const oneLine = (text: string, max: number) => cutBetweenCharacters(text.replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/gu, ' '), max);

/** The route and origin of a request (API Gateway's own view, not headers a client may forge, except the user agent). */
export const requestFacts = (event: APIGatewayProxyEvent, fallbackRequestId = ''): RequestFacts => ({
  action: `${event.httpMethod} ${event.resource}`,
  requestId: event.requestContext?.requestId ?? fallbackRequestId,
  sourceIp: event.requestContext?.identity?.sourceIp ?? '',
  userAgent: oneLine(event.requestContext?.identity?.userAgent ?? event.headers?.['user-agent'] ?? '', USER_AGENT_MAX),
});

/** One authentication event of a request (sign-in, token refusal, service token exchange, …). */
export interface AuthEventFacts {
  event: AuthEvent;
  actor: AuditActor;
  target: AuditTarget;
  status: number;
  reason?: string;
}

/** The entry of an authentication event: the request's facts, no fields. */
export const authEventEntry = (request: APIGatewayProxyEvent, facts: AuthEventFacts): AuditEntry => ({ ...requestFacts(request), ...facts, fields: [] });

export const AUDIT_UNAVAILABLE = 'The audit log is unavailable; retry shortly';

/**
 * Stores an entry before the request is answered (DESIGN §5; docs/guide/rules/access.md "A change and its audit record are written in one transaction"). When it cannot be
 * stored the request answers 503 with `unavailable`, and the entry (names only, no value, so no
 * secret) goes to the error log instead, so that nothing happens unrecorded.
 */
export const appendOrUnavailable = async <E extends object>(log: { append(entry: E): Promise<void> }, entry: E, unavailable: string): Promise<void> => {
  try {
    await log.append(entry);
  } catch (error) {
    logger.error('audit record not stored', { audit: entry, reason: String(error) });
    throw new ServiceUnavailable(unavailable);
  }
};
