import { randomUUID } from 'node:crypto';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import * as store from '#lib/access/audit/repository';
import { Invalid } from '#lib/shared/errors';
import type { Page } from '#lib/store/paging';
import { alongside } from '#lib/store/transaction';
import type { AuditLog } from '#lib/http/contract';
import { AUDIT_UNAVAILABLE, appendOrUnavailable, authEventEntry, type AuditEntry, type AuditFilter, type AuditRecord, type AuthEventFacts } from '#lib/access/audit/types';

/*
 * The audit log (DESIGN §5; docs/adr/0211): what a change or an authentication event leaves
 * behind, stored on the request path. Changes are recorded by the HTTP middleware through
 * `auditLog` (the binding of every audited route carries it); authentication events by the code
 * that decides them, through `recordAuthEvent`. Both throw when the record could not be stored:
 * the request then answers 503 (lib/http/index.ts).
 */

const DEFAULT_RETENTION_DAYS = 400;
const DAY_SECONDS = 24 * 60 * 60;

/** How long records are kept: AUDIT_RETENTION_DAYS (a positive integer; default 400). */
export const auditRetentionDays = (env: NodeJS.ProcessEnv = process.env): number => {
  const days = Number(env.AUDIT_RETENTION_DAYS);
  return Number.isInteger(days) && days > 0 ? days : DEFAULT_RETENTION_DAYS;
};

/** The stored form of an entry: an id, the time (ms, UTC) and, for the TTL, when it expires (epoch seconds). */
export const recordOf = (entry: AuditEntry, now = Date.now(), days = auditRetentionDays()): { record: AuditRecord; expiresAt: number } => ({
  record: { ...entry, id: randomUUID(), at: new Date(now).toISOString() },
  expiresAt: Math.floor(now / 1000) + days * DAY_SECONDS,
});

export const auditLog: AuditLog<AuditEntry> = {
  append: async (entry) => {
    const { record, expiresAt } = recordOf(entry);
    await store.append(record, expiresAt);
  },
  prepare: (entry) => {
    const { record, expiresAt } = recordOf(entry);
    return {
      alongside: (work) => alongside(() => store.appendActions(record, expiresAt), work),
      complete: (final) => store.append({ ...final, id: record.id, at: record.at }, expiresAt),
    };
  },
};

/**
 * Stores an authentication event of `request` before it is answered. When it cannot be stored
 * the request answers 503 (nothing about access goes unrecorded) and the record goes to the log.
 */
export const recordAuthEvent = (request: APIGatewayProxyEvent, facts: AuthEventFacts, log: AuditLog = auditLog): Promise<void> =>
  appendOrUnavailable(log, authEventEntry(request, facts), AUDIT_UNAVAILABLE);

/** The filters of GET /audit as the store compares them: times in the records' own form (UTC, milliseconds). */
export const auditFilterOf = (query: AuditFilter): AuditFilter => {
  const { actor, actorKind, action, event, targetType, targetId, from, to } = query;
  const picked: AuditFilter = { actor, actorKind, action, event, targetType, targetId, from, to };
  const filter = Object.fromEntries(Object.entries(picked).filter(([, value]) => value !== undefined)) as AuditFilter;
  for (const bound of ['from', 'to'] as const) if (filter[bound] !== undefined) filter[bound] = new Date(filter[bound]).toISOString();
  if (filter.from !== undefined && filter.to !== undefined && filter.from > filter.to) {
    throw new Invalid('from must not be after to', [{ field: 'queryStringParameters.from', message: 'from must not be after to' }]);
  }
  return filter;
};

/** One page of the log, newest first (GET /audit). */
export const auditPage = (filter: AuditFilter, limit: number, cursor?: string): Promise<Page<AuditRecord>> => store.query(filter, limit, cursor);
