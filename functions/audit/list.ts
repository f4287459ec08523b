import http from '#generated/routes/auditList';
import { AUDIT_CSV } from '#lib/access';
import { auditFilterOf, auditPage } from '#lib/access';
import { csvAnswer } from '#lib/shared/csv';

// GET /audit?actor&actorKind&action&event&targetType&targetId&from&to&limit&cursor&format -> one page, newest first (admin);
// format=csv: the page as CSV, the next page's cursor in the next-cursor header
export const handler = http(async ({ query }) => {
  const page = await auditPage(auditFilterOf(query), query.limit ? Number(query.limit) : 100, query.cursor);
  return query.format === 'csv' ? csvAnswer(AUDIT_CSV, page) : { statusCode: 200, body: page };
});
