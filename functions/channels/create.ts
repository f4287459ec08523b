import http from '#generated/routes/channelsCreate';
import { createChannel } from '#lib/notify/channels';

// POST /channels -> 201 the channel (a webhook with its signing secret, shown only here); 400 invalid or unsafe url
export const handler = http(async ({ body }) => ({ statusCode: 201, body: await createChannel(body) }));
