import http from '#generated/routes/alarmsEvaluateNow';
import { Conflict } from '#lib/shared/errors';
import { runEvaluation } from '#lib/alarms/engine';
import { mailerFromEnv } from '#lib/adapters/mail';
import { connectionsFromEnv } from '#lib/adapters/connections';
import { enableLivePush } from '#lib/live';
import { apart } from '#lib/store/transaction';

const mailer = mailerFromEnv();
enableLivePush(connectionsFromEnv());

// POST /alarms/evaluate -> {raised, cleared, mailed, updated, roomsRecomputed, complete}; 409 while another run holds the lease
export const handler = http(async ({ event, context }) => {
  const budgetMs = answerWithin(Date.now(), event.requestContext?.requestTimeEpoch, context?.getRemainingTimeInMillis?.());
  // the engine's writes are single-item on purpose (its hot path): none carries the request's audit record, written after the run
  const outcome = await apart(() => runEvaluation({ mailer, mode: 'forced', budgetMs }));
  if (!outcome.ran) throw new Conflict('Another alarm evaluation is running; retry in a few seconds');
  return { statusCode: 200, body: outcome.summary };
});

/** API Gateway answers 504 after 29 s: the run answers by 27 s after the gateway took the request (it stops writing 2 s before: RELEASE_MS). */
const ANSWER_WITHIN_MS = 27_000;
/** And 1 s before the Lambda's own timeout (also 29 s), whichever comes first. */
const LAMBDA_MARGIN_MS = 1_000;

/** The run's whole budget, store calls included (lib/shared/deadline.ts). */
const answerWithin = (now: number, requestTimeEpoch?: number, remainingMs?: number): number =>
  Math.min(
    ANSWER_WITHIN_MS - (requestTimeEpoch ? Math.max(0, now - requestTimeEpoch) : 0),
    remainingMs === undefined ? Number.POSITIVE_INFINITY : remainingMs - LAMBDA_MARGIN_MS,
  );
