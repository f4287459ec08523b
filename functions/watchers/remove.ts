import http from '#generated/routes/watchersRemove';
import { watchers } from '#lib/db/watchers';

// DELETE /watcher/{watcherid} -> 200 confirming string; 404 unknown id; 400 malformed id
export const handler = http(async ({ path }) => {
  await watchers.remove(path.watcherid);
  return { statusCode: 200, body: `Watcher ${path.watcherid} deleted` };
});
