import http from '#generated/routes/channelsGet';
import { getChannel } from '#lib/notify/channels';

// GET /channels/{id} -> 200 the channel, never its secret, a webhook's URL masked; 404 unknown
export const handler = http(async ({ path }) => ({ statusCode: 200, body: await getChannel(path.id) }));
