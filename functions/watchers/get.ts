import { http } from '#lib/http';
import { watchers } from '#lib/db/watchers';
import validate from '#schemas/generated/watcherById';

// GET /watcher/{watcherid} -> 200 the watcher; 404 unknown id; 400 malformed id
export const handler = http<undefined, { watcherid: string }>({ validate, invalidStatus: 400 }, async ({ path }) => ({
  statusCode: 200,
  body: await watchers.get(path.watcherid),
}));
