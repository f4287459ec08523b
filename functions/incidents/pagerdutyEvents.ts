import http from '#generated/routes/incidentsPagerdutyEvents';
import { auditLog, requestFacts } from '#lib/access';
import { secret } from '#lib/adapters/secrets';
import { connectionsFromEnv } from '#lib/adapters/connections';
import { rawBodyOf } from '#lib/http';
import { enableLivePush } from '#lib/live';
import { PAGERDUTY_PRINCIPAL, receivePagerDutyEvent } from '#lib/notify/pagerduty/receive';

enableLivePush(connectionsFromEnv());

// POST /incidents/pagerduty/events (no API key) -> 200 the event taken; 400 no event; 401 unsigned, mis-signed or
// replayed; 413 oversized. The secret: PAGERDUTY_WEBHOOK_SECRET, in AWS its SSM parameter.
export const handler = http(async ({ event, headers, body, requestId }) => {
  const answer = await receivePagerDutyEvent({ rawBody: rawBodyOf(event), body, signature: headers['x-pagerduty-signature'], secret: await secret('PAGERDUTY_WEBHOOK_SECRET') });
  if (answer.outcome === 'acknowledged') {
    // the acknowledgement is PagerDuty's service principal's change: audited as such, the alarm its target
    await auditLog.append({
      ...requestFacts(event, requestId),
      event: 'change',
      actor: { kind: PAGERDUTY_PRINCIPAL.kind, id: PAGERDUTY_PRINCIPAL.username },
      target: { type: 'alarm', ...(answer.alarmId ? { id: answer.alarmId } : {}) },
      status: 200,
      fields: ['acknowledgedBy'],
    });
  }
  return { statusCode: 200, body: answer };
});
