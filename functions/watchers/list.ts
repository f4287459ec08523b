import { http } from '#lib/http';
import { watchers } from '#lib/db/watchers';

// GET /watcher/all -> 200 every watcher
export const handler = http({ invalidStatus: 400 }, async () => ({
  statusCode: 200,
  body: await watchers.list(),
}));
