import http from '#generated/routes/locationsPut';
import { putProfile } from '#lib/locations/service';

// PUT /locations/{region}/{location}/profile -> 200 the profile as stored (created or replaced whole); 422 naming each bad field
export const handler = http(async ({ path, body, principal }) => ({ statusCode: 200, body: await putProfile(path, body, principal.username) }));
