import http from '#generated/routes/channelsList';
import { listChannels } from '#lib/notify/channels';

// GET /channels -> 200 every channel, never a secret, webhook URLs masked
export const handler = http(async () => ({ statusCode: 200, body: await listChannels() }));
