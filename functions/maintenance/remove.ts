import http from '#generated/routes/maintenanceRemove';
import { removeWindow } from '#lib/maintenance/service';

// DELETE /maintenance/{id} -> 200 confirmation; 404 unknown or outside the caller's scope; 409 changed meanwhile
export const handler = http(async ({ path, principal }) => {
  await removeWindow(path.id, principal.scope);
  return { statusCode: 200, body: 'Maintenance window deleted' };
});
