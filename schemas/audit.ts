/**
 * The audit log (DESIGN §5; docs/adr/0211-audit-log-which-routes-and-what-a-record-says.md and docs/guide/rules/access.md): every successful change and every
 * authentication event, newest first, kept AUDIT_RETENTION_DAYS (default 400). Admin only;
 * nothing changes or deletes it. Invalid input is 422, as paging errors are on every paginated route.
 */
import { ACTOR_KINDS, AUDIT_EVENTS } from '#lib/access';
import { AUDIT_CSV_COLUMNS } from '#lib/access';
import { NEXT_CURSOR_HEADER } from '#lib/shared/csv';
import { dateTime, error, name, nextCursorHeaders, oneOfValues, page, pageOf, routesOf, Type } from './shared';

const record = Type.Object({
  id: Type.String(),
  at: dateTime,
  event: oneOfValues(AUDIT_EVENTS, { description: 'change (a successful change), or the authentication event' }),
  actor: Type.Object({ kind: oneOfValues(ACTOR_KINDS), id: Type.String({ description: 'the username, the service id, or api-key' }) }),
  action: Type.String({ description: 'the route, e.g. "PUT /watcher/{watcherid}"' }),
  target: Type.Object({ type: Type.String(), id: Type.Optional(Type.String()) }),
  status: Type.Integer({ description: 'the status answered' }),
  fields: Type.Array(Type.String(), { description: 'names of the body fields the request set; never a value' }),
  requestId: Type.String(),
  sourceIp: Type.String(),
  userAgent: Type.String(),
  reason: Type.Optional(Type.String({ description: 'why a token was refused (token-revoked): revoked, superseded, inactive or gone' })),
});

export const routes = {
  list: routesOf({ permission: 'admin', invalidStatus: 422 })('GET', 'audit', 'The audit log, newest first: filters, pages, CSV export', {
    request: {
      query: {
        actor: name(),
        actorKind: oneOfValues(ACTOR_KINDS, { description: 'user, service or api-key' }),
        action: Type.String({ pattern: '^(GET|POST|PUT|DELETE|PATCH) /[^\\s]*$', maxLength: 300, description: 'a route as records name it, e.g. "POST /watcher"' }),
        event: oneOfValues(AUDIT_EVENTS),
        targetType: name(64),
        targetId: name(),
        from: Type.String({ format: 'date-time', description: 'ISO 8601: at or after' }),
        to: Type.String({ format: 'date-time', description: 'ISO 8601: at or before' }),
        format: oneOfValues(['json', 'csv'] as const, { description: 'json (default) or csv' }),
        ...page,
      },
    },
    responses: {
      200: {
        description:
          'One page (?limit, default 100) of records, newest first, and the cursor of the next (null on the last). With ' +
          `format=csv: RFC 4180 CSV with a header row (${AUDIT_CSV_COLUMNS.join(',')}), cells a spreadsheet would run as a formula ` +
          `prefixed with a quote; the cursor of the next page in the ${NEXT_CURSOR_HEADER} header, absent on the last`,
        schema: pageOf(record),
        media: { 'text/csv': Type.String() },
        headers: nextCursorHeaders,
      },
      422: error('Invalid filter, window (from after to), limit or cursor, each offending field named'),
    },
  }),
};
