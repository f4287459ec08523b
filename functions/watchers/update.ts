import http from '#generated/routes/watchersUpdate';
import { updateWatcher } from '#lib/watchers/write';

// PUT /watcher/{watcherid} -> 200 the updated watcher; 400 invalid or unknown channel; 404 unknown id, outside the caller's
// scope, or a condition naming a place outside it; 409 changed meanwhile
export const handler = http(async ({ path, body, principal }) => ({
  statusCode: 200,
  body: await updateWatcher(path.watcherid, body, principal.scope), // queued for evaluation before it is written
}));
