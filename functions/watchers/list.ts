import http from '#generated/routes/watchersList';
import { listWithin } from '#lib/watchers/reach';

// GET /watcher/all[?limit=&cursor=] -> 200 every watcher the caller's scope reaches (a bare array), or one page
// {items, nextCursor}; 400; 422 bad cursor
export const handler = http(async ({ query, principal }) => ({
  statusCode: 200,
  body: await listWithin(principal.scope, { limit: query.limit ? Number(query.limit) : undefined, cursor: query.cursor }),
}));
