import { disconnect } from '#lib/live';
import { socket } from '#lib/live';

// WebSocket $disconnect -> the connection and its subscription are forgotten
export const handler = socket(async ({ requestContext }) => {
  await disconnect(requestContext.connectionId);
  return { statusCode: 200 };
});
