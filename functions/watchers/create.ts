import { http } from '#lib/http';
import { watchers } from '#lib/db/watchers';
import { checkChannelIds } from '#lib/notify/channelIds';
import type { WatcherInput } from '#lib/watchers/rules';
import validate from '#schemas/generated/watcherCreate';

// POST /watcher -> 200 the new (active) watcher's id as a JSON string; 400 invalid body
export const handler = http<WatcherInput>({ validate, invalidStatus: 400 }, async ({ body }) => {
  await checkChannelIds(body.channelIds);
  return { statusCode: 200, body: await watchers.create(body) };
});
