import http from '#generated/routes/watchersGet';
import { getWithin } from '#lib/watchers/reach';

// GET /watcher/{watcherid} -> 200 the watcher; 404 unknown id or outside the caller's scope; 400 malformed id
export const handler = http(async ({ path, principal }) => ({
  statusCode: 200,
  body: await getWithin(path.watcherid, principal.scope),
}));
