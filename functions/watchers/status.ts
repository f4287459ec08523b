import http from '#generated/routes/watchersStatus';
import { evaluationQueue } from '#lib/db/evaluationQueue';
import * as watchers from '#lib/db/watchers';

// PUT /watcher/{watcherid}/status -> 200 the updated watcher; 400 non-boolean active; 404 unknown id
export const handler = http(async ({ path, body }) => {
  // queued first: a crash after the write still leaves its evaluation queued (an extra entry is harmless)
  await evaluationQueue.addWatcher(path.watcherid);
  const updated = await watchers.setActive(path.watcherid, body.active);
  return { statusCode: 200, body: updated };
});
