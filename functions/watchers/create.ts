import http from '#generated/routes/watchersCreate';
import { evaluationQueue } from '#lib/db/evaluationQueue';
import { createWatcher } from '#lib/watchers/write';

// POST /watcher -> 200 the new (active) watcher's id as a JSON string; 400 invalid body or unknown channel
export const handler = http(async ({ body }) => {
  const id = await createWatcher(body);
  await evaluationQueue.addWatcher(id); // its alarms follow at the evaluator's next tick
  return { statusCode: 200, body: id };
});
