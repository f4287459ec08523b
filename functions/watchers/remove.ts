import http from '#generated/routes/watchersRemove';
import { removeWatcher } from '#lib/watchers/write';

// DELETE /watcher/{watcherid} -> 200 confirming string; 404 unknown id or outside the caller's scope; 400 malformed id
export const handler = http(async ({ path, principal }) => {
  await removeWatcher(path.watcherid, principal.scope);
  return { statusCode: 200, body: `Watcher ${path.watcherid} deleted` };
});
