import type { LambdaClient } from '@aws-sdk/client-lambda';
import { logger } from '#lib/shared/log';
import { recordWork } from '#lib/shared/metrics';

/*
 * The hand-off from a function that saw a device change to the alarm engine
 * (docs/adr/0580-a-change-reaches-the-alarm-engine-by-an-asynchronous-invocation.md): the change
 * is already in the evaluation queue (the table), and this asks Lambda to run the queue pass now
 * in the evaluator function `alarmsEvaluateQueued`, asynchronously (InvocationType `Event`:
 * Lambda queues the invocation and answers 202 at once). The nudge is not the work: when it
 * fails, the queued entries wait for the scheduled evaluator, the floor under every path.
 *
 * Under `npm start` the same call goes to serverless offline's Lambda port (LAMBDA_ENDPOINT),
 * which runs the function in its process; in AWS, to the regional Lambda API with the caller's
 * role, which may invoke that one function only (resources/permissions.yml EvaluatorNudge).
 * The Lambda client is left out of the bundles (serverless.yml custom.esbuild.exclude: the
 * runtime ships it) and loaded on the first nudge, not at every cold start.
 */

/** The function that runs the queue pass (schemas/alarms.ts jobs.evaluateQueued). */
export const EVALUATOR_FUNCTION_KEY = 'alarmsEvaluateQueued';

/**
 * How long a nudge may take, its retry included: the caller answers a person (a refresh) or a
 * vendor that wants its 2xx within 3 s (Zoom's receiver), and an invocation Lambda accepted
 * answers in tens of milliseconds.
 */
export const NUDGE_TIMEOUT_MS = 1_500;

/** The evaluator's Lambda name as the framework names it: `<service>-<stage>-<function>`. */
export const evaluatorFunctionName = (env: NodeJS.ProcessEnv = process.env): string =>
  `${env.SERVICE_NAME ?? 'device-monitoring'}-${env.STAGE ?? 'local'}-${EVALUATOR_FUNCTION_KEY}`;

const clients = new Map<string, Promise<LambdaClient>>();
const clientFor = (endpoint: string | undefined): Promise<LambdaClient> => {
  const key = endpoint ?? '';
  let client = clients.get(key);
  if (!client) {
    client = import('@aws-sdk/client-lambda').then(
      ({ LambdaClient: Client }) =>
        new Client({ maxAttempts: 2, ...(endpoint ? { endpoint, region: process.env.AWS_REGION ?? 'us-east-1' } : {}) }),
    );
    // a client that failed to load is loaded again by the next nudge rather than kept failing
    client.catch(() => clients.delete(key));
    clients.set(key, client);
  }
  return client;
};

/**
 * Asks the evaluator to run the queue pass now. Never throws and never waits for the pass: a
 * failed or refused invocation (Lambda throttled or unreachable, serverless offline stopped) is
 * logged and counted (metric NudgesFailed, area evaluation), and the caller answers as usual.
 * `from` names the caller in the evaluator's log line.
 */
export const nudgeEvaluation = async (from = 'unknown'): Promise<void> => {
  const endpoint = process.env.LAMBDA_ENDPOINT || undefined;
  // a local run without serverless offline's Lambda port never calls AWS: its evaluator loop takes the queue
  if (process.env.IS_OFFLINE && !endpoint) return;
  const functionName = evaluatorFunctionName();
  try {
    const [client, { InvokeCommand }] = await Promise.all([clientFor(endpoint), import('@aws-sdk/client-lambda')]);
    const answer = await client.send(new InvokeCommand({ FunctionName: functionName, InvocationType: 'Event', Payload: JSON.stringify({ from }) }), {
      abortSignal: AbortSignal.timeout(NUDGE_TIMEOUT_MS),
    });
    // an asynchronous invocation Lambda accepted answers 202; serverless offline answers a
    // function it does not know with 404 in the body's status instead of an error
    if (answer.StatusCode !== 202) throw new Error(`the Lambda API answered status ${answer.StatusCode ?? 'none'}${answer.FunctionError ? ` (${answer.FunctionError})` : ''}`);
  } catch (error) {
    logger.warn('evaluator not nudged: the queued changes wait for the scheduled evaluator', {
      from,
      function: functionName,
      error: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
    });
    await recordWork('evaluation', { NudgesFailed: 1 });
  }
};
