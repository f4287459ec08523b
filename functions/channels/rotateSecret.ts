import http from '#generated/routes/channelsRotateSecret';
import { rotateSecret } from '#lib/notify/channels';

// POST /channels/{id}/rotate-secret -> 200 the channel with its new secret (shown only here); 404; 409 not a webhook
export const handler = http(async ({ path }) => ({ statusCode: 200, body: await rotateSecret(path.id) }));
