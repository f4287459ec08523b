import http from '#generated/routes/channelsRemove';
import { removeChannel } from '#lib/notify/channels';

// DELETE /channels/{id} -> 200 confirmation; 404 unknown; 409 a watcher uses it
export const handler = http(async ({ path }) => {
  await removeChannel(path.id);
  return { statusCode: 200, body: 'Channel deleted' };
});
