import http from '#generated/routes/watchersRemove';
import { evaluationQueue } from '#lib/db/evaluationQueue';
import * as watchers from '#lib/db/watchers';

// DELETE /watcher/{watcherid} -> 200 confirming string; 404 unknown id; 400 malformed id
export const handler = http(async ({ path }) => {
  // queued first: a crash after the write still leaves its evaluation queued (an extra entry is harmless)
  await evaluationQueue.addWatcher(path.watcherid);
  await watchers.remove(path.watcherid);
  return { statusCode: 200, body: `Watcher ${path.watcherid} deleted` };
});
