import http from '#generated/routes/maintenanceUpdate';
import { replaceWindow } from '#lib/maintenance/service';

// PUT /maintenance/{id} -> 200 the window as replaced; 400 naming the field; 404 unknown, or it or the new matchers
// outside the caller's scope; 409 changed by another request meanwhile
export const handler = http(async ({ path, body, principal }) => ({ statusCode: 200, body: await replaceWindow(path.id, body, principal.scope) }));
