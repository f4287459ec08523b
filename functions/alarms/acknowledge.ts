import http from '#generated/routes/alarmsAcknowledge';
import { acknowledgeAndTell } from '#lib/notify/acknowledgements';
import { connectionsFromEnv } from '#lib/adapters/connections';
import { enableLivePush } from '#lib/live';

enableLivePush(connectionsFromEnv());

// POST /alarms/{id}/ack {comment?, ackUntil?} -> 200 the alarm, acknowledged by the caller (the bearer token's user or service, else "api-key"),
// told to the alarm's incident channels (a ServiceNow incident moves to In Progress);
// 404 unknown or its device outside the caller's scope; 409 no longer open; 422
export const handler = http(async ({ path, body, principal }) => ({
  statusCode: 200,
  body: await acknowledgeAndTell(path.id, principal.username, body?.comment, principal.scope, body?.ackUntil),
}));
