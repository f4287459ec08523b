import { http } from '#lib/http';
import { evaluationQueue } from '#lib/db/evaluationQueue';
import { watchers } from '#lib/db/watchers';
import validate from '#schemas/generated/watcherStatus';

// PUT /watcher/{watcherid}/status -> 200 the updated watcher; 400 non-boolean active; 404 unknown id
export const handler = http<{ active: boolean }, { watcherid: string }>(
  { validate, invalidStatus: 400 },
  async ({ path, body }) => {
    const updated = await watchers.setActive(path.watcherid, body.active);
    await evaluationQueue.addWatcher(path.watcherid);
    return { statusCode: 200, body: updated };
  },
);
