import http from '#generated/routes/watchersStatus';
import { setWatcherActive } from '#lib/watchers/write';

// PUT /watcher/{watcherid}/status -> 200 the updated watcher; 400 non-boolean active; 404 unknown id or outside the caller's scope
export const handler = http(async ({ path, body, principal }) => ({
  statusCode: 200,
  body: await setWatcherActive(path.watcherid, body.active, principal.scope),
}));
