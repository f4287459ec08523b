import { http } from '#lib/http';
import { evaluationQueue } from '#lib/db/evaluationQueue';
import { watchers } from '#lib/db/watchers';
import validate from '#schemas/generated/watcherById';

// DELETE /watcher/{watcherid} -> 200 confirming string; 404 unknown id; 400 malformed id
export const handler = http<undefined, { watcherid: string }>({ validate, invalidStatus: 400 }, async ({ path }) => {
  await watchers.remove(path.watcherid);
  await evaluationQueue.addWatcher(path.watcherid);
  return { statusCode: 200, body: `Watcher ${path.watcherid} deleted` };
});
