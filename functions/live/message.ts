import { Invalid } from '#lib/shared/errors';
import { admit, subscribe } from '#lib/live';
import { reply, socket } from '#lib/live';
import validate from '#generated/validators/liveMessage';

// WebSocket `subscribe` {"action":"subscribe","filter":{...}} -> {"type":"subscribed","filter","snapshot"};
// anything else ($default) or an invalid filter -> {"type":"error","message"}; over the connection's
// message rate -> {"type":"error","message":"... slow down ..."} (every message counts)
export const handler = socket(async ({ requestContext, body }) => {
  const connection = await admit(requestContext.connectionId);
  if (requestContext.routeKey !== 'subscribe') throw new Invalid('Unknown action; send {"action": "subscribe", "filter": {regionName, locationName, roomName}}');
  return reply(await subscribe(requestContext.connectionId, body, validate, connection));
});
