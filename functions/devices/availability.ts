import http from '#generated/routes/devicesAvailability';
import { roomAvailability } from '#lib/devices/availability';

// POST /videoDevice/room/availability {device filter, from?, to?} -> {from, to, rooms (worst first), overall}, rooms within the caller's scope; 422
export const handler = http(async ({ body, principal }) => ({ statusCode: 200, body: await roomAvailability(body, principal.scope) }));
