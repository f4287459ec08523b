import http from '#generated/routes/silencesCreate';
import { createSilence } from '#lib/alarms/silencing';
import { actorOf } from '#lib/auth/optional';

// POST /silences -> 201 the silence with id, createdBy (bearer token's user, else "api-key") and status; 400 naming the field
export const handler = http(async ({ body, event }) => ({ statusCode: 201, body: await createSilence(body, await actorOf(event)) }));
