import http from '#generated/routes/lookupsLocationsByZone';
import { lookupNames } from '#lib/devices/lookups';

// GET /filters/location/byzone/{zone} -> integer: locations in the region named zone (DESIGN D2), within the caller's scope; 400
export const handler = http(async ({ path, principal }) => ({
  statusCode: 200,
  body: (await lookupNames('location', { regionName: path.zone }, principal.scope)).length,
}));
