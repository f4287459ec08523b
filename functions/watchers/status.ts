import http from '#generated/routes/watchersStatus';
import { evaluationQueue } from '#lib/db/evaluationQueue';
import * as watchers from '#lib/db/watchers';

// PUT /watcher/{watcherid}/status -> 200 the updated watcher; 400 non-boolean active; 404 unknown id
export const handler = http(async ({ path, body }) => {
  const updated = await watchers.setActive(path.watcherid, body.active);
  await evaluationQueue.addWatcher(path.watcherid);
  return { statusCode: 200, body: updated };
});
