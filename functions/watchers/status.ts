import http from '#generated/routes/watchersStatus';
import { watchers } from '#lib/db/watchers';

// PUT /watcher/{watcherid}/status -> 200 the updated watcher; 400 non-boolean active; 404 unknown id
export const handler = http(async ({ path, body }) => ({
  statusCode: 200,
  body: await watchers.setActive(path.watcherid, body.active),
}));
