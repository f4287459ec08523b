import http from '#generated/routes/lookupsRegion';
import { lookup } from '#lib/devices/lookups';

// POST /filters/region -> shape A: [region names] (sorted, unique); body with `filters` -> shape B: count; 400 invalid body
export const handler = http(async ({ body, principal }) => ({
  statusCode: 200,
  body: await lookup('region', body, principal.scope),
}));
