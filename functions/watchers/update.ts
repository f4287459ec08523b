import http from '#generated/routes/watchersUpdate';
import { watchers } from '#lib/db/watchers';
import { checkChannelIds } from '#lib/notify/channelIds';

// PUT /watcher/{watcherid} -> 200 the updated watcher; 400 invalid; 404 unknown id; 409 changed meanwhile
export const handler = http(async ({ path, body }) => {
  await checkChannelIds(body.channelIds);
  return { statusCode: 200, body: await watchers.update(path.watcherid, body) };
});
