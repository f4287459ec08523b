import http from '#generated/routes/channelsGet';
import * as channels from '#lib/db/channels';

// GET /channels/{id} -> 200 the channel, never its secret; 404 unknown
export const handler = http(async ({ path }) => ({ statusCode: 200, body: await channels.get(path.id) }));
