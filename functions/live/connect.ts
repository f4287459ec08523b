import { connect } from '#lib/live';
import { socket } from '#lib/live';

// WebSocket $connect ?ticket=<from POST /live/ticket> -> 200, or 401 (refused) without a valid, unused ticket
export const handler = socket(async ({ requestContext, queryStringParameters }) => {
  await connect(requestContext.connectionId, queryStringParameters?.ticket);
  return { statusCode: 200 };
});
