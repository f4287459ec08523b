import { Invalid } from '#lib/errors';
import { subscribe } from '#lib/live/session';
import { reply, socket } from '#lib/live/socket';
import validate from '#generated/validators/liveMessage';

// WebSocket `subscribe` {"action":"subscribe","filter":{...}} -> {"type":"subscribed","filter","snapshot"};
// anything else ($default) or an invalid filter -> {"type":"error","message"}
export const handler = socket(async ({ requestContext, body }) => {
  if (requestContext.routeKey !== 'subscribe') throw new Invalid('Unknown action; send {"action": "subscribe", "filter": {regionName, locationName, roomName}}');
  return reply(await subscribe(requestContext.connectionId, body, validate));
});
