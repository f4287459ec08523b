import http from '#generated/routes/devicesHistory';
import { deviceHistoryCsv } from '#lib/devices/csv';
import { deviceHistory } from '#lib/devices/history';
import { csvAnswer } from '#lib/shared/csv';

// GET /videoDevice/{devicesn}/history?from&to&limit&cursor&format -> {items: [{at, connected, inCallStatus}], nextCursor}; 404 (also outside the caller's scope); 422
// format=csv: the same page as CSV, the next page's cursor in the next-cursor header
export const handler = http(async ({ path, query, principal }) => {
  const page = await deviceHistory(path.devicesn, query, principal.scope);
  return query.format === 'csv' ? csvAnswer(deviceHistoryCsv(path.devicesn), page) : { statusCode: 200, body: page };
});
