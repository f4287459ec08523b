import type { AuditLog, AuditTargetId, Principal, RouteAudit, RouteContract } from '#lib/http/contract';
import type { HttpResult } from '#lib/http/respond';
import { auditLog } from './log';
import { AUDIT_EVENTS, appendOrUnavailable, requestFacts, type AuditEntry, type AuditEvent, type AuditTarget, type AuthEvent } from './types';

/*
 * Which routes the audit log records, and what it records of them (DESIGN §5; docs/adr/0211).
 * The rule reads the contract, so a new route is covered without editing a list: a route is a
 * change when it is not a GET and needs more than reading the fleet (`fleet:read` POSTs are
 * queries: device lists, lookups, live tickets, a refresh) and is not public (sign-in records
 * its own events). A contract may say otherwise (`audit: { record }`), name the authentication
 * event it is (logout, password change) and where its target comes from. The generator resolves
 * this once into the route's binding; at run time only the values are picked.
 */

type TargetId = AuditTargetId;

/** What the binding of an audited route carries (scripts/generate.ts writes it). */
export interface AuditFacts {
  /** The route, e.g. `PUT /watcher/{watcherid}`. */
  action: string;
  event: AuditEvent;
  target: string;
  targetId?: TargetId;
  /** The body fields the contract declares: only these names are ever recorded. */
  fields: readonly string[];
  /** The route's first 2xx: what a record written with the change says until the answer is known (docs/adr/0550). */
  status?: number;
}

/** A contract's `audit.event`, which must name an authentication event: a typo fails the build, not a record. */
const authEventOf = (event: string, contract: Pick<RouteContract, 'method' | 'path'>): AuthEvent => {
  const found = AUDIT_EVENTS.find((known): known is AuthEvent => known !== 'change' && known === event);
  if (found === undefined) throw new Error(`${contract.method} /${contract.path}: audit.event ${event} is not an authentication event (${AUDIT_EVENTS.filter((known) => known !== 'change').join(', ')})`);
  return found;
};

/** Whether the rule counts a route as a change (before the contract's own `audit.record`). */
export const isChange = (contract: Pick<RouteContract, 'method' | 'permission'>): boolean =>
  contract.method !== 'GET' && contract.permission !== 'fleet:read' && contract.permission !== 'public';

const isAudited = (contract: Pick<RouteContract, 'method' | 'permission' | 'audit'>): boolean => contract.audit?.record ?? isChange(contract);

type Schema = Record<string, unknown>;
const isSchema = (value: unknown): value is Schema => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Every property name a body schema declares at its top level, across its branches (oneOf, if/then/else) and array items. */
export const declaredFields = (schema: unknown): string[] => {
  const names = new Set<string>();
  const visit = (node: unknown) => {
    if (!isSchema(node)) return;
    if (isSchema(node.properties)) Object.keys(node.properties).forEach((name) => names.add(name));
    for (const branch of ['oneOf', 'anyOf', 'allOf']) if (Array.isArray(node[branch])) (node[branch] as unknown[]).forEach(visit);
    for (const part of ['then', 'else', 'items']) visit(node[part]);
  };
  visit(schema);
  return [...names].sort();
};

const ID_FIELDS = ['id', 'roleid', 'username'];

/** The default place of a route's target id: its last path parameter, else the id field of its 2xx answer. */
const defaultTargetId = (contract: RouteContract): TargetId | undefined => {
  const params = contract.path.match(/\{([^}+]+)\+?\}/g)?.map((param) => param.replace(/[{}+]/g, '')) ?? [];
  const last = params[params.length - 1];
  if (last) return { path: last };
  const answers = Object.entries(contract.responses).filter(([status]) => status.startsWith('2'));
  for (const [, answer] of answers) {
    const properties = (answer.schema as Schema | undefined)?.properties;
    const field = isSchema(properties) ? ID_FIELDS.find((name) => name in properties) : undefined;
    if (field) return { answer: field };
  }
  return undefined;
};

/** The audit facts of a route of `area`, or undefined when the route is not recorded. */
export const auditFactsOf = (contract: RouteContract, area: string): AuditFacts | undefined => {
  if (!isAudited(contract)) return undefined;
  const spec = contract.audit ?? {};
  const event = spec.event === undefined ? 'change' : authEventOf(spec.event, contract);
  const targetId = spec.targetId ?? defaultTargetId(contract);
  return {
    action: `${contract.method} /${contract.path}`,
    event,
    target: spec.target ?? area.replace(/s$/, ''),
    ...(targetId ? { targetId } : {}),
    fields: declaredFields(contract.request?.body),
    status: Math.min(...Object.keys(contract.responses).map(Number).filter((status) => status >= 200 && status < 300)),
  };
};

/** The names of the declared fields a body sets (of each item, for a list), sorted; never a value. */
export const changedFields = (body: unknown, declared: readonly string[]): string[] => {
  const objects = (Array.isArray(body) ? body : [body]).filter(isSchema);
  const present = new Set(objects.flatMap((object) => Object.keys(object)));
  return declared.filter((name) => present.has(name));
};

const idText = (value: unknown): string | undefined =>
  typeof value === 'string' && value !== '' ? value : typeof value === 'number' && Number.isFinite(value) ? String(value) : undefined;

/** The id a path names: one parameter as is; several (a location of a region) URI-encoded and joined, none missing. */
const pathId = (path: Record<string, unknown>, names: string | readonly string[]): string | undefined => {
  if (typeof names === 'string') return idText(path[names]);
  const parts = names.map((name) => idText(path[name]));
  return parts.every((part) => part !== undefined) ? parts.map((part) => encodeURIComponent(part!)).join('/') : undefined;
};

/** What a request acted on: the facts' type and the id where they say it is. */
export const targetOf = (
  facts: Pick<AuditFacts, 'target' | 'targetId'>,
  request: { path: Record<string, unknown>; result: Pick<HttpResult, 'body'>; principal: Pick<Principal, 'kind' | 'username'> },
): AuditTarget => {
  const where = facts.targetId;
  if (where === 'caller') return { type: request.principal.kind, id: request.principal.username };
  const id =
    where === undefined
      ? undefined
      : where === 'answer'
        ? idText(request.result.body)
        : 'path' in where
          ? pathId(request.path, where.path)
          : idText(isSchema(request.result.body) ? request.result.body[where.answer] : undefined);
  return id === undefined ? { type: facts.target } : { type: facts.target, id };
};

/** The record of an audited request that answered `result`. */
export const auditEntryOf = (
  facts: AuditFacts,
  request: {
    path: Record<string, unknown>;
    body: unknown;
    principal: Pick<Principal, 'kind' | 'username'>;
    requestId: string;
    sourceIp: string;
    userAgent: string;
  },
  result: Pick<HttpResult, 'statusCode' | 'body'>,
): AuditEntry => ({
  event: facts.event,
  actor: { kind: request.principal.kind, id: request.principal.username },
  action: facts.action,
  target: targetOf(facts, { path: request.path, result, principal: request.principal }),
  status: result.statusCode,
  fields: changedFields(request.body, facts.fields),
  requestId: request.requestId,
  sourceIp: request.sourceIp,
  userAgent: request.userAgent,
});

/**
 * What the binding of an audited route carries (lib/http calls it, knowing nothing of what a record
 * says): the route's facts bound to the log its records go to.
 */
export const routeAudit = (facts: AuditFacts, log: AuditLog = auditLog): RouteAudit & AuditFacts => ({
  ...facts,
  log,
  entryOf: (request, result) => auditEntryOf(facts, { ...requestFacts(request.event, request.requestId), path: request.path, body: request.body, principal: request.principal }, result),
  appendOrUnavailable: (entry, unavailable) => appendOrUnavailable(log, entry, unavailable),
});
