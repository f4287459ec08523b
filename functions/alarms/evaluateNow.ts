import http from '#generated/routes/alarmsEvaluateNow';
import { Conflict } from '#lib/errors';
import { runEvaluation } from '#lib/alarms/evaluate';
import { mailerFromEnv } from '#lib/adapters/mail';
import { connectionsFromEnv } from '#lib/adapters/connections';
import { enableLivePush } from '#lib/live/push';

const mailer = mailerFromEnv();
enableLivePush(connectionsFromEnv());

// POST /alarms/evaluate -> {raised, cleared, mailed, updated, roomsRecomputed, complete}; 409 while another run holds the lease
export const handler = http(async ({ event }) => {
  const outcome = await runEvaluation({ mailer, force: true, tickSeconds: 0, budgetMs: budget(event.requestContext?.requestTimeEpoch) });
  if (!outcome.ran) throw new Conflict('Another alarm evaluation is running; retry in a few seconds');
  return { statusCode: 200, body: outcome.summary };
});

/** API Gateway answers 504 after 29 s: stop writing well before. */
const budget = (startedAt: number | undefined) => 25_000 - (startedAt ? Math.max(0, Date.now() - startedAt) : 0);
