import http from '#generated/routes/alarmsHistory';
import { ALARM_HISTORY_CSV } from '#lib/alarms/pure/csv';
import { queryHistory } from '#lib/alarms/history';
import { csvAnswer } from '#lib/shared/csv';

// GET /alarms/history?region&location&room&devicesn&watcherId&from&to&limit&cursor&format -> {items, nextCursor} newest first, within the caller's scope; 422
// format=csv: the same page as CSV, the next page's cursor in the next-cursor header
export const handler = http(async ({ query, principal }) => {
  const page = await queryHistory(query, principal.scope);
  return query.format === 'csv' ? csvAnswer(ALARM_HISTORY_CSV, page) : { statusCode: 200, body: page };
});
