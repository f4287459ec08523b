import http from '#generated/routes/servicesRotateSecret';
import { rotateSecret } from '#lib/access';

// POST /api/authService/service/{id}/rotate-secret -> 200 the service with its new client secret (shown only here); 404 unknown (admin)
export const handler = http(async ({ path }) => ({ statusCode: 200, body: await rotateSecret(path.id) }));
