import http from '#generated/routes/maintenanceGet';
import { getWindow } from '#lib/maintenance/service';

// GET /maintenance/{id} -> 200 the window; 404 unknown or outside the caller's scope; 400 malformed id
export const handler = http(async ({ path, principal }) => ({ statusCode: 200, body: await getWindow(path.id, principal.scope) }));
