import http from '#generated/routes/lookupsLocation';
import { lookup } from '#lib/devices/lookups';

// POST /filters/location -> shape A: [location names] (sorted, unique); body with `filters` -> shape B: count; 400 invalid body
export const handler = http(async ({ body, principal }) => ({
  statusCode: 200,
  body: await lookup('location', body, principal.scope),
}));
