import http from '#generated/routes/locationsRemove';
import { removeProfile } from '#lib/locations/service';

// DELETE /locations/{region}/{location}/profile -> 200 confirmation; 404 no profile
export const handler = http(async ({ path }) => {
  await removeProfile(path);
  return { statusCode: 200, body: 'Location profile deleted' };
});
