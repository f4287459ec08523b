import http from '#generated/routes/channelsList';
import * as channels from '#lib/db/channels';

// GET /channels -> 200 every channel, never a secret
export const handler = http(async () => ({ statusCode: 200, body: await channels.list() }));
