import http from '#generated/routes/alarmsAcknowledge';
import { acknowledgeAlarm } from '#lib/alarms/acknowledge';
import { acknowledgedNotice } from '#lib/notify/pagerduty/acknowledged';
import { connectionsFromEnv } from '#lib/adapters/connections';
import { enableLivePush } from '#lib/live';

enableLivePush(connectionsFromEnv());

// POST /alarms/{id}/ack {comment?, ackUntil?} -> 200 the alarm, acknowledged by the caller (the bearer token's user or service, else "api-key");
// 404 unknown or its device outside the caller's scope; 409 no longer open; 422
export const handler = http(async ({ path, body, principal }) => ({
  statusCode: 200,
  // PagerDuty channels of the alarm's watcher are told (lib/notify/pagerduty)
  body: await acknowledgeAlarm(path.id, principal.username, body?.comment, principal.scope, body?.ackUntil, acknowledgedNotice),
}));
