import http from '#generated/routes/watchersCreate';
import { watchers } from '#lib/db/watchers';

// POST /watcher -> 200 the new (active) watcher's id as a JSON string; 400 invalid body
export const handler = http(async ({ body }) => ({
  statusCode: 200,
  body: await watchers.create(body),
}));
