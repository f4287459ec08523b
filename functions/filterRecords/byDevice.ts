import http from '#generated/routes/filterRecordsByDevice';
import { filterOfDevice } from '#lib/config';

// GET /filters/device/{deviceSN} -> 200 the filter record with its deviceSN (lowest id if several); 404 "Filter not found",
// also for a device outside a scoped caller's scope
export const handler = http(async ({ path, principal }) => ({
  statusCode: 200,
  body: await filterOfDevice(path.deviceSN, principal.scope),
}));
