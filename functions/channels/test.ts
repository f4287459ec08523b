import http from '#generated/routes/channelsTest';
import { mailerFromEnv } from '#lib/adapters/mail';
import { testChannel } from '#lib/notify/channels';

const mailer = mailerFromEnv();

// POST /channels/{id}/test -> 200 the test delivery after its first attempt; 404 unknown
export const handler = http(async ({ path }) => ({ statusCode: 200, body: await testChannel(path.id, mailer, Date.now() + 15_000) }));
