import http from '#generated/routes/watchersList';
import * as watchers from '#lib/db/watchers';

// GET /watcher/all -> 200 every watcher
export const handler = http(async () => ({
  statusCode: 200,
  body: await watchers.list(),
}));
