import http from '#generated/routes/filterRecordsByDevice';
import { filters } from '#lib/db/filters';

// GET /filters/device/{deviceSN} -> 200 the filter record with its deviceSN (lowest id if several); 404 "Filter not found"
export const handler = http(async ({ path }) => ({
  statusCode: 200,
  body: await filters.byDevice(path.deviceSN),
}));
