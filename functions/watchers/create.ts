import http from '#generated/routes/watchersCreate';
import { createWatcher } from '#lib/watchers/write';

// POST /watcher -> 200 the new (active) watcher's id as a JSON string; 400 invalid body or unknown channel
export const handler = http(async ({ body }) => {
  const id = await createWatcher(body); // queued for evaluation before it is stored
  return { statusCode: 200, body: id };
});
