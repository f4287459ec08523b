import { http } from '#lib/http';
import { lookup, type LookupBody } from '#lib/devices/lookups';
import validate from '#schemas/generated/lookupsByFilter';

// POST /filters/room -> shape A: [room names] (sorted, unique); body with `filters` -> shape B: count; 400 invalid body
export const handler = http<LookupBody | undefined>({ validate, invalidStatus: 400 }, async ({ body }) => ({
  statusCode: 200,
  body: await lookup('room', body),
}));
