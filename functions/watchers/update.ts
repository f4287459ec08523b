import { http } from '#lib/http';
import { watchers } from '#lib/db/watchers';
import { checkChannelIds } from '#lib/notify/channelIds';
import type { WatcherInput } from '#lib/watchers/rules';
import validate from '#schemas/generated/watcherUpdate';

// PUT /watcher/{watcherid} -> 200 the updated watcher; 400 invalid; 404 unknown id; 409 changed meanwhile
export const handler = http<WatcherInput, { watcherid: string }>(
  { validate, invalidStatus: 400 },
  async ({ path, body }) => {
    await checkChannelIds(body.channelIds);
    return { statusCode: 200, body: await watchers.update(path.watcherid, body) };
  },
);
