import http from '#generated/routes/watchersCreate';
import { watchers } from '#lib/db/watchers';
import { checkChannelIds } from '#lib/notify/channelIds';

// POST /watcher -> 200 the new (active) watcher's id as a JSON string; 400 invalid body
export const handler = http(async ({ body }) => {
  await checkChannelIds(body.channelIds);
  return { statusCode: 200, body: await watchers.create(body) };
});
