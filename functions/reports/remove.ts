import http from '#generated/routes/reportsRemove';
import { removeSchedule } from '#lib/reports/service';

// DELETE /reports/{id} -> 200 confirmation; 404 unknown or outside the caller's scope; 409 changed meanwhile
export const handler = http(async ({ path, principal }) => {
  await removeSchedule(path.id, principal.scope);
  return { statusCode: 200, body: 'Report schedule deleted' };
});
