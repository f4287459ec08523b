import http from '#generated/routes/lookupsRoom';
import { lookup } from '#lib/devices/lookups';

// POST /filters/room -> shape A: [room names] (sorted, unique); body with `filters` -> shape B: count; 400 invalid body
export const handler = http(async ({ body, principal }) => ({
  statusCode: 200,
  body: await lookup('room', body, principal.scope),
}));
