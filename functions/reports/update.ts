import http from '#generated/routes/reportsUpdate';
import { replaceSchedule } from '#lib/reports/service';

// PUT /reports/{id} -> 200 the schedule as replaced; 422 naming the field (a channel unknown or not the caller's to name); 404 unknown, or it or body.scope outside
// the caller's scope; 409 changed by another request meanwhile
export const handler = http(async ({ path, body, principal }) => ({ statusCode: 200, body: await replaceSchedule(path.id, body, principal) }));
