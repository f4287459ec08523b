import http from '#generated/routes/watchersGet';
import * as watchers from '#lib/db/watchers';

// GET /watcher/{watcherid} -> 200 the watcher; 404 unknown id; 400 malformed id
export const handler = http(async ({ path }) => ({
  statusCode: 200,
  body: await watchers.get(path.watcherid),
}));
