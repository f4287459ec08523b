import http from '#generated/routes/watchersCreate';
import { createWatcher } from '#lib/watchers/write';

// POST /watcher -> 200 the new (active) watcher's id as a JSON string; 400 invalid body or unknown channel;
// 404 a condition naming a place outside the caller's scope (the watcher keeps that scope: it raises only inside)
export const handler = http(async ({ body, principal }) => {
  const id = await createWatcher(body, principal.scope); // queued for evaluation before it is stored
  return { statusCode: 200, body: id };
});
