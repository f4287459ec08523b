import middy from '@middy/core';
import type { Context } from 'aws-lambda';
import { logger } from '#lib/shared/log';
import { recordWork } from '#lib/shared/metrics';
import { tracing } from '#lib/shared/tracing';
import { runQueue } from '#lib/alarms/engine';
import { mailerFromEnv } from '#lib/adapters/mail';
import { connectionsFromEnv } from '#lib/adapters/connections';
import { enableLivePush } from '#lib/live';

const mailer = mailerFromEnv();
enableLivePush(connectionsFromEnv());

/**
 * A nudge that finds another run holding the evaluator's lease waits for it this long: that run
 * read the queue when it started, so the entries the nudge stands for may be newer than its read.
 * After that they are the scheduled evaluator's (every minute), which also runs the queue.
 */
export const BUSY_WAIT_MS = 20_000;
const BUSY_RETRY_MS = 500;
/** What the run leaves of the function's time for publishing and answering. */
const MARGIN_MS = 10_000;

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

/** The payload lib/adapters/nudge.ts sends: who saw the change (for the log line only). */
type Nudge = { from?: unknown } | null | undefined;

// Invoked asynchronously by the functions that saw a device change (lib/adapters/nudge.ts), never
// on a schedule: the queue pass under the evaluator's lease, until the queue is done or the time is.
// In AWS a run that fails is retried twice by Lambda, then goes to the stage's alarm topic
// (schemas/alarms.ts); under serverless offline nothing retries it: the local evaluator loop does.
export const handler = middy(async (event: Nudge, context?: Context) => {
  const startedAt = Date.now();
  const from = typeof event?.from === 'string' ? event.from.slice(0, 64) : 'unknown';
  const left = () => (context?.getRemainingTimeInMillis ? context.getRemainingTimeInMillis() - MARGIN_MS : undefined);
  try {
    for (;;) {
      const outcome = await runQueue({ mailer, budgetMs: left() });
      if (outcome.ran) {
        logger.info('queued evaluation', { from, ...outcome.summary });
        await recordWork('evaluation', {
          QueuedEvaluationRuns: 1,
          QueuedEvaluationDuration: [Date.now() - startedAt, 'Milliseconds'],
          AlarmsRaised: outcome.summary.raised,
          AlarmsCleared: outcome.summary.cleared,
        });
        return outcome;
      }
      const remaining = left();
      if (Date.now() - startedAt >= BUSY_WAIT_MS || (remaining !== undefined && remaining < BUSY_RETRY_MS)) {
        logger.info('queued evaluation', { from, skipped: outcome.reason, waitedMs: Date.now() - startedAt });
        return outcome;
      }
      await sleep(BUSY_RETRY_MS);
    }
  } catch (error) {
    // serverless offline does not await an asynchronous invocation: a rejection there would end npm start
    if (!process.env.IS_OFFLINE) throw error;
    logger.error('queued evaluation failed; the local evaluator takes the queue', { from, error: error instanceof Error ? error.message : String(error) });
    return { ran: false, reason: 'failed' };
  }
}).use(tracing());
