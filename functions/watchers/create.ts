import http from '#generated/routes/watchersCreate';
import { evaluationQueue } from '#lib/db/evaluationQueue';
import { watchers } from '#lib/db/watchers';
import { checkChannelIds } from '#lib/notify/channelIds';

// POST /watcher -> 200 the new (active) watcher's id as a JSON string; 400 invalid body
export const handler = http(async ({ body }) => {
  await checkChannelIds(body.channelIds);
  const id = await watchers.create(body);
  await evaluationQueue.addWatcher(id); // its alarms follow at the evaluator's next tick
  return { statusCode: 200, body: id };
});
