import { http } from '#lib/http';
import { lookupNames } from '#lib/devices/lookups';
import validate from '#schemas/generated/lookupsByZone';

// GET /filters/location/byzone/{zone} -> integer: locations in the region named zone (DESIGN D2); 400
export const handler = http<undefined, { zone: string }>({ validate, invalidStatus: 400 }, async ({ path }) => ({
  statusCode: 200,
  body: (await lookupNames('location', { regionName: path.zone })).length,
}));
