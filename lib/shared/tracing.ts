import type { MiddlewareObj } from '@middy/core';
import type { Tracer } from '@aws-lambda-powertools/tracer';

/**
 * AWS X-Ray through the Powertools tracer, loaded on the first invocation and only where
 * tracing is on (in Lambda with active tracing, which sets AWS_XRAY_DAEMON_ADDRESS): the
 * X-Ray SDK it brings costs tens of milliseconds to import, which no cold start pays locally
 * or with tracing off (DESIGN §8). The tracer and the X-Ray SDK come from the Powertools
 * Lambda layer, not from the bundles (serverless.yml).
 *
 * What it traces: each invocation as a `## <handler>` subsegment, every AWS SDK client passed
 * to `traced()` (DynamoDB, SES) and outgoing `fetch` calls (the HTTP device provider).
 */
const enabled = () => Boolean(process.env.AWS_XRAY_DAEMON_ADDRESS) && process.env.POWERTOOLS_TRACE_ENABLED !== 'false';

type Client = Parameters<Tracer['captureAWSv3Client']>[0];
const clients: Client[] = [];
let tracer: Promise<Tracer> | undefined;

const load = async () => {
  const { Tracer } = await import('@aws-lambda-powertools/tracer');
  const loaded = new Tracer({ serviceName: process.env.SERVICE_NAME ?? 'device-monitoring' });
  for (const client of clients) loaded.captureAWSv3Client(client);
  return loaded;
};

/** Registers an AWS SDK v3 client: its calls become subsegments once tracing starts. */
export const traced = <T extends Client>(client: T): T => {
  clients.push(client);
  if (tracer) void tracer.then((t) => t.captureAWSv3Client(client));
  return client;
};

/** A middy middleware: the invocation as a traced subsegment (Powertools' own middleware, loaded lazily). */
export const tracing = (): MiddlewareObj => {
  let middleware: Promise<MiddlewareObj> | undefined;
  const inner = () => {
    middleware ??= (async () => {
      tracer ??= load();
      const { captureLambdaHandler } = await import('@aws-lambda-powertools/tracer/middleware');
      return captureLambdaHandler(await tracer, { captureResponse: false });
    })();
    return middleware;
  };
  return {
    before: async (request) => {
      if (enabled()) await (await inner()).before?.(request);
    },
    after: async (request) => {
      if (middleware) await (await middleware).after?.(request);
    },
    onError: async (request) => {
      if (middleware) await (await middleware).onError?.(request);
    },
  };
};
