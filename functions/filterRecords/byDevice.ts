import http from '#generated/routes/filterRecordsByDevice';
import { filterRecords } from '#lib/db/filterRecords';

// GET /filters/device/{deviceSN} -> 200 the filter record with its deviceSN (lowest id if several); 404 "Filter not found"
export const handler = http(async ({ path }) => ({
  statusCode: 200,
  body: await filterRecords.byDevice(path.deviceSN),
}));
