import http from '#generated/routes/watchersList';
import * as watchers from '#lib/db/watchers';

// GET /watcher/all[?limit=&cursor=] -> 200 every watcher (a bare array), or one page {items, nextCursor}; 400; 422 bad cursor
export const handler = http(async ({ query }) => ({
  statusCode: 200,
  body: await watchers.listOrPage({ limit: query.limit ? Number(query.limit) : undefined, cursor: query.cursor }),
}));
