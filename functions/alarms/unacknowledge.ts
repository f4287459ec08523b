import http from '#generated/routes/alarmsUnacknowledge';
import { unacknowledgeAlarm } from '#lib/alarms/acknowledge';
import { connectionsFromEnv } from '#lib/adapters/connections';
import { enableLivePush } from '#lib/live';

enableLivePush(connectionsFromEnv());

// DELETE /alarms/{id}/ack -> 200 the alarm without acknowledgement (recorded as the caller's); 404 unknown or outside the caller's scope; 409 no longer open
export const handler = http(async ({ path, principal }) => ({ statusCode: 200, body: await unacknowledgeAlarm(path.id, principal.scope, principal.username) }));
