import http from '#generated/routes/auditList';
import { auditCsv, NEXT_CURSOR_HEADER } from '#lib/audit/csv';
import { auditFilterOf, auditPage } from '#lib/audit/log';

// GET /audit?actor&actorKind&action&event&targetType&targetId&from&to&limit&cursor&format -> one page, newest first (admin);
// format=csv: the page as CSV, the next page's cursor in the next-cursor header
export const handler = http(async ({ query }) => {
  const page = await auditPage(auditFilterOf(query), query.limit ? Number(query.limit) : 100, query.cursor);
  if (query.format !== 'csv') return { statusCode: 200, body: page };
  return {
    statusCode: 200,
    body: auditCsv(page.items),
    headers: { 'content-type': 'text/csv; charset=utf-8; header=present', ...(page.nextCursor ? { [NEXT_CURSOR_HEADER]: page.nextCursor } : {}) },
  };
});
