import http from '#generated/routes/channelsUpdate';
import { replaceChannel } from '#lib/notify/channels';

// PUT /channels/{id} -> 200 the updated channel (a webhook URL masked; the masked URL sent back keeps it); 400 invalid, unsafe url or another type; 404 unknown
export const handler = http(async ({ path, body }) => ({ statusCode: 200, body: await replaceChannel(path.id, body) }));
