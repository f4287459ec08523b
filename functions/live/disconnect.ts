import { disconnect } from '#lib/live/session';
import { socket } from '#lib/live/socket';

// WebSocket $disconnect -> the connection and its subscription are forgotten
export const handler = socket(async ({ requestContext }) => {
  await disconnect(requestContext.connectionId);
  return { statusCode: 200 };
});
