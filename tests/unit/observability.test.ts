import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { areaOf, functionName, NAMESPACE, recordRequest, recordWork } from '#lib/shared/metrics';
import { emitted } from '../support/emf';

const root = join(__dirname, '..', '..');

describe('metrics (EMF)', () => {
  beforeEach(() => {
    vi.stubEnv('STAGE', 'prod');
    vi.stubEnv('SERVICE_NAME', 'device-monitoring');
    vi.stubEnv('AWS_LAMBDA_FUNCTION_NAME', 'device-monitoring-prod-intervalsGet');
    vi.stubEnv('POWERTOOLS_METRICS_DISABLED', 'false');
  });
  afterEach(() => vi.unstubAllEnvs());

  it('a request publishes latency and its status class per area and per function, in one namespace', async () => {
    const [line] = await emitted(() => recordRequest({ resource: '/intervals/{id}', status: 404, latencyMs: 12 }));
    const meta = line!._aws.CloudWatchMetrics[0]!;
    expect(meta.Namespace).toBe(NAMESPACE);
    expect(meta.Dimensions.map((d) => [...d].sort())).toEqual([
      ['area', 'service', 'stage'],
      ['function', 'service', 'stage'],
    ]);
    expect(meta.Metrics).toEqual(
      expect.arrayContaining([
        { Name: 'Latency', Unit: 'Milliseconds' },
        { Name: 'Status4xx', Unit: 'Count' },
      ]),
    );
    expect(line).toMatchObject({ stage: 'prod', area: 'intervals', function: 'intervalsGet', Latency: 12, Status2xx: 0, Status4xx: 1, Status5xx: 0 });
  });

  it('background work publishes its figures under its area only', async () => {
    const [line] = await emitted(() => recordWork('evaluation', { EvaluationRuns: 1, EvaluationDuration: [250, 'Milliseconds'], AlarmsRaised: 3 }));
    expect(line!._aws.CloudWatchMetrics[0]!.Dimensions.map((d) => [...d].sort())).toEqual([['area', 'service', 'stage']]);
    expect(line).toMatchObject({ area: 'evaluation', EvaluationRuns: 1, EvaluationDuration: 250, AlarmsRaised: 3 });
  });

  it('dimensions stay low-cardinality: the area is a route\'s first path segment, the function its short name', () => {
    expect(areaOf('/videoDevice/all/totalDevices')).toBe('videoDevice');
    expect(areaOf('/api/authService/auth/{user}')).toBe('api');
    expect(areaOf(undefined)).toBe('unknown');
    expect(functionName('device-monitoring-prod-watchersCreate')).toBe('watchersCreate');
  });
});

describe('metrics switched off', () => {
  it('publishes nothing where POWERTOOLS_METRICS_DISABLED=true', async () => {
    vi.stubEnv('POWERTOOLS_METRICS_DISABLED', 'true');
    try {
      expect(await emitted(() => recordWork('sync', { SyncRuns: 1 }))).toEqual([]);
    } finally {
      vi.unstubAllEnvs();
    }
  });
});

describe('Powertools from its layer', () => {
  it('the layer serverless.yml names is the version package.json pins and node_modules holds', () => {
    const pinned = /powertoolsVersion: (\S+)/.exec(readFileSync(join(root, 'serverless.yml'), 'utf8'))?.[1];
    const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    for (const name of ['logger', 'metrics', 'tracer']) {
      expect(manifest.dependencies[`@aws-lambda-powertools/${name}`]).toBe(pinned);
      const installed = JSON.parse(readFileSync(join(root, 'node_modules', '@aws-lambda-powertools', name, 'package.json'), 'utf8')) as { version: string };
      expect(installed.version).toBe(pinned);
    }
  });
});
