import http from '#generated/routes/vendorsZoomEvents';
import { nudgeEvaluation } from '#lib/adapters/nudge';
import { secret } from '#lib/adapters/secrets';
import { rawBodyOf } from '#lib/http';
import { receiveZoomEvent } from '#lib/inventory';
import { connectionsFromEnv } from '#lib/adapters/connections';
import { enableLivePush } from '#lib/live';

// a device the event changed reaches open dashboards at once, as a refresh's does
enableLivePush(connectionsFromEnv());

// POST /vendors/zoom/events (no API key) -> 200 a validation answer or the event stored; 401 unsigned,
// mis-signed or replayed; 413 oversized. The secret token: ZOOM_WEBHOOK_SECRET_TOKEN, in AWS its SSM parameter.
// An applied change nudges the queue evaluator before the answer (at most 1.5 s: Zoom wants its 2xx within 3 s).
export const handler = http(async ({ event, headers, body }) => {
  const answer = await receiveZoomEvent({
    rawBody: rawBodyOf(event),
    body,
    timestamp: headers['x-zm-request-timestamp'],
    signature: headers['x-zm-signature'],
    secret: await secret('ZOOM_WEBHOOK_SECRET_TOKEN'),
  });
  if ('outcome' in answer && answer.outcome === 'applied') await nudgeEvaluation('zoom-event');
  return { statusCode: 200, body: answer };
});
