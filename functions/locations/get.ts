import http from '#generated/routes/locationsGet';
import { getProfile } from '#lib/locations/service';

// GET /locations/{region}/{location}/profile -> 200 the profile; 404 none, or outside the caller's scope; 422 names too long
export const handler = http(async ({ path, principal }) => ({ statusCode: 200, body: await getProfile(path, principal.scope) }));
