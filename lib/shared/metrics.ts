import type { Metrics } from '@aws-lambda-powertools/metrics';
import { logger } from '#lib/shared/log';

/**
 * CloudWatch metrics in embedded metric format (EMF): JSON lines on stdout that CloudWatch
 * Logs turns into metrics, no API call. One namespace; dimensions kept low-cardinality:
 * service and stage on everything, plus `area` (a bounded list) and, for requests, the
 * function (one per route). docs/operations.md lists every metric.
 *
 * Powertools metrics is loaded on the first publish (after a request's answer is computed),
 * from the Powertools layer: importing it with the handler would cost every cold start ~25%
 * over the floor (DESIGN §8, bench/results/coldstart.md). Where metrics are disabled
 * (POWERTOOLS_METRICS_DISABLED=true: npm start, tests) it is never loaded.
 */
export const NAMESPACE = 'DeviceMonitoring';

const stage = () => process.env.STAGE ?? 'local';
const service = () => process.env.SERVICE_NAME ?? 'device-monitoring';

let shared: Promise<Metrics> | undefined;
const metrics = () => {
  shared ??= import('@aws-lambda-powertools/metrics').then(
    ({ Metrics }) => new Metrics({ namespace: NAMESPACE, serviceName: service(), defaultDimensions: { stage: stage() } }),
  );
  return shared;
};
const disabled = () => process.env.POWERTOOLS_METRICS_DISABLED === 'true';

/** Where background work reports: one value of the `area` dimension each. */
type WorkArea = 'evaluation' | 'sync' | 'notifications' | 'live';

type Unit = 'Count' | 'Milliseconds';
type Figures = Record<string, number | [number, Unit]>;

/** Publishes the figures under [service, stage, area], and [service, stage, function] when given. */
const publish = (area: string, fn: string | undefined, figures: Figures): Promise<void> => emit(area, fn ? { function: fn } : undefined, figures);

/** Publishes the figures under [service, stage, area], and [service, stage, ...also] when given. */
const emit = async (area: string, also: Record<string, string> | undefined, figures: Figures): Promise<void> => {
  if (disabled()) return;
  try {
    const m = await metrics();
    m.addDimension('area', area);
    if (also) m.addDimensions(also);
    for (const [name, figure] of Object.entries(figures)) {
      const [value, unit] = Array.isArray(figure) ? figure : [figure, 'Count' as const];
      m.addMetric(name, unit, value);
    }
    m.publishStoredMetrics();
  } catch (error) {
    // a metric lost is no reason to fail the request or the run that produced it
    logger.warn('metrics not published', { area, ...also, error });
  }
};

/** The function's own name (`intervalsList`), without the `<service>-<stage>-` Lambda prefix. */
export const functionName = (lambdaName = process.env.AWS_LAMBDA_FUNCTION_NAME ?? 'local'): string => {
  const prefix = `${service()}-${stage()}-`;
  return lambdaName.startsWith(prefix) ? lambdaName.slice(prefix.length) : lambdaName;
};

/** The route's area: the first segment of its path (`/videoDevice/all/x` -> `videoDevice`). */
export const areaOf = (resource: string | undefined): string => resource?.split('/').find(Boolean) ?? 'unknown';

/**
 * One API request: its latency and its status class, as `Status2xx`/`Status4xx`/`Status5xx`
 * each 0 or 1, so that a metric's Average is the rate of that class and its Sum the count.
 * Published per area and per function (one function per route).
 */
export const recordRequest = async (request: { resource: string | undefined; status: number; latencyMs: number }) => {
  const area = areaOf(request.resource);
  const statusClass = Math.floor(request.status / 100);
  await publish(area, functionName(), {
    Latency: [request.latencyMs, 'Milliseconds'],
    Status2xx: statusClass === 2 ? 1 : 0,
    Status4xx: statusClass === 4 ? 1 : 0,
    Status5xx: statusClass === 5 ? 1 : 0,
  });
};

/** Figures of one run of background work (evaluation, sync, notifications, live pushes). */
export const recordWork = (area: WorkArea, figures: Figures): Promise<void> => publish(area, undefined, figures);


/** Figures of one provider in one sync, under [service, stage, area=sync] and [service, stage, provider] (alarmed on in resources/observability.yml). */
export const recordProvider = (provider: string, figures: Figures): Promise<void> => emit('sync', { provider }, figures);
