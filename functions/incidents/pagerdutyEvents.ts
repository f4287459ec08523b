import http from '#generated/routes/incidentsPagerdutyEvents';
import { requestFacts } from '#lib/access/audit/types';
import { secret } from '#lib/adapters/secrets';
import { rawBodyOf } from '#lib/http';
import { receivePagerDutyEvent } from '#lib/notify/pagerduty/receive';

// POST /incidents/pagerduty/events (no API key) -> 200 the event taken; 400 no event; 401 unsigned, mis-signed or
// replayed; 413 oversized. The secret: PAGERDUTY_WEBHOOK_SECRET, in AWS its SSM parameter.
export const handler = http(async ({ event, headers, body, requestId }) => ({
  statusCode: 200,
  body: await receivePagerDutyEvent({
    rawBody: rawBodyOf(event),
    body,
    signature: headers['x-pagerduty-signature'],
    secret: await secret('PAGERDUTY_WEBHOOK_SECRET'),
    request: requestFacts(event, requestId),
  }),
}));
