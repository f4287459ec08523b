import http from '#generated/routes/maintenanceCreate';
import { createWindow } from '#lib/maintenance/service';

// POST /maintenance -> 201 the window with id, createdBy, status, nextOpening and nextClosing; 400 naming the field;
// 404 matchers not pinning a region (and location) within the caller's scope; 409 the stage's cap of windows not yet ended
export const handler = http(async ({ body, principal }) => ({ statusCode: 201, body: await createWindow(body, principal.username, principal.scope) }));
