import http from '#generated/routes/vendorsZoomEvents';
import { secret } from '#lib/adapters/secrets';
import { rawBodyOf } from '#lib/http';
import { receiveZoomEvent } from '#lib/inventory';

// POST /vendors/zoom/events (no API key) -> 200 a validation answer or the event stored; 401 unsigned,
// mis-signed or replayed; 413 oversized. The secret token: ZOOM_WEBHOOK_SECRET_TOKEN, in AWS its SSM parameter.
export const handler = http(async ({ event, headers, body }) => ({
  statusCode: 200,
  body: await receiveZoomEvent({
    rawBody: rawBodyOf(event),
    body,
    timestamp: headers['x-zm-request-timestamp'],
    signature: headers['x-zm-signature'],
    secret: await secret('ZOOM_WEBHOOK_SECRET_TOKEN'),
  }),
}));
