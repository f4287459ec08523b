import http from '#generated/routes/reportsGet';
import { getSchedule } from '#lib/reports/service';

// GET /reports/{id} -> 200 the schedule; 404 unknown or outside the caller's scope; 422 malformed id
export const handler = http(async ({ path, principal }) => ({ statusCode: 200, body: await getSchedule(path.id, principal.scope) }));
