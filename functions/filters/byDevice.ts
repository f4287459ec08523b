import { http } from '#lib/http';
import { filters } from '#lib/db/filters';
import validate from '#schemas/generated/filtersByDevice';

// GET /filters/device/{deviceSN} -> 200 the filter record with its deviceSN (lowest id if several); 404 "Filter not found"
export const handler = http<undefined, { deviceSN: string }>({ validate, invalidStatus: 400 }, async ({ path }) => ({
  statusCode: 200,
  body: await filters.byDevice(path.deviceSN),
}));
