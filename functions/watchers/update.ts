import http from '#generated/routes/watchersUpdate';
import { evaluationQueue } from '#lib/db/evaluationQueue';
import { updateWatcher } from '#lib/watchers/write';

// PUT /watcher/{watcherid} -> 200 the updated watcher; 400 invalid or unknown channel; 404 unknown id; 409 changed meanwhile
export const handler = http(async ({ path, body }) => {
  // queued first: a crash after the write still leaves its evaluation queued (an extra entry is harmless)
  await evaluationQueue.addWatcher(path.watcherid);
  const updated = await updateWatcher(path.watcherid, body);
  return { statusCode: 200, body: updated };
});
