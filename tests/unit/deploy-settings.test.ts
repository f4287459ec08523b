import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LOCAL_API_KEY } from '../../scripts/local/env';
import { root } from '../../scripts/registry';

/** Deployment facts of issue 23 that need no packaging (tests/e2e/package.test.ts checks the template). */
const load = createRequire(__filename);
interface ApiKey {
  name?: string;
  value?: string | null;
}
interface Guard {
  hooks: Record<string, () => void>;
}
type GuardClass = (new (serverless: unknown) => Guard) & { MIN_LENGTH: number };
const ApiKeyGuard = load('../../plugins/api-key-guard.js') as GuardClass;

class ServerlessError extends Error {}
const servicesWithKey = (value: ApiKey['value']) => {
  const key: ApiKey = { name: 'device-monitoring-dev-key', value };
  const template = { Resources: { ApiGatewayApiKey1: { Type: 'AWS::ApiGateway::ApiKey' } }, Outputs: {} as Record<string, unknown> };
  const serverless = {
    classes: { Error: ServerlessError },
    service: { provider: { apiGateway: { apiKeys: [key] }, compiledCloudFormationTemplate: template } },
  };
  return { key, template, guard: new ApiKeyGuard(serverless) };
};

describe('API keys of deployed stages (issue 23 finding 8)', () => {
  it('keeps the local key of npm start long enough for API Gateway (20+), and refuses to deploy it', () => {
    expect(LOCAL_API_KEY.length).toBeGreaterThanOrEqual(20);
    const { guard } = servicesWithKey(LOCAL_API_KEY);
    expect(() => guard.hooks['before:package:initialize']!()).toThrow(/documented local key/);
    // the old 17-character one too
    expect(() => servicesWithKey('local-dev-api-key').guard.hooks['before:package:initialize']!()).toThrow(/local key/);
  });

  it('refuses a given key under 32 characters and accepts a longer one', () => {
    expect(ApiKeyGuard.MIN_LENGTH).toBe(32);
    expect(() => servicesWithKey('x'.repeat(31)).guard.hooks['before:package:initialize']!()).toThrow(/31 characters/);
    const { key, guard } = servicesWithKey('k'.repeat(32));
    guard.hooks['before:package:initialize']!();
    expect(key.value).toBe('k'.repeat(32));
  });

  it('lets API Gateway generate the key when none is given (an empty API_KEY counts as none), and outputs its id', () => {
    for (const value of ['', null, undefined]) {
      const { key, guard, template } = servicesWithKey(value);
      guard.hooks['before:package:initialize']!();
      expect(key.value).toBeUndefined();
      guard.hooks['before:package:finalize']!();
      expect(template.Outputs.ApiKeyId).toMatchObject({ Value: { Ref: 'ApiGatewayApiKey1' } });
    }
  });

  it('gives no stage a fallback key in serverless.yml', () => {
    const config = readFileSync(join(root, 'serverless.yml'), 'utf8');
    expect(config).toContain('value: ${env:API_KEY, null}');
    expect(config).not.toMatch(/apiKeyFallback/);
    expect(config).toContain('./plugins/api-key-guard.js');
  });

  it('documents the local key everywhere it is shown (README, the guide, board example, client)', () => {
    // a header, a JSON or TypeScript setting, or the key in bold as the local guide states it
    const keysIn = (file: string) =>
      [...readFileSync(join(root, file), 'utf8').matchAll(/x-api-key: ([\w-]+)|"apiKey": "([\w-]+)"|apiKey: '([\w-]+)'|key is \*\*`([\w-]+)`\*\*/g)].map((m) => m[1] ?? m[2] ?? m[3] ?? m[4]);
    for (const file of ['README.md', 'docs/guide/tour.md', 'docs/guide/local.md', 'board/config.example.json', 'client/index.ts']) {
      const keys = keysIn(file);
      expect(keys.length, file).toBeGreaterThan(0);
      for (const key of keys) expect(key, file).toBe(LOCAL_API_KEY);
    }
    // and wherever else a guide page shows one
    const guide = readdirSync(join(root, 'docs/guide')).filter((name) => name.endsWith('.md'));
    for (const page of guide) for (const key of keysIn(`docs/guide/${page}`)) expect(key, page).toBe(LOCAL_API_KEY);
  });
});

describe('the scheduled sync (issue 23 finding 8)', () => {
  it('is never retried asynchronously: a retry could only overlap the next sync', () => {
    const functions = load('js-yaml').load(readFileSync(join(root, 'generated', 'functions.yml'), 'utf8')) as Record<string, { maximumRetryAttempts?: number }>;
    expect(functions.devicesSync?.maximumRetryAttempts).toBe(0);
  });
});

describe('DynamoDB throttle alarm (issue 23 finding 8)', () => {
  it('sums the read and write throttles of the table and of every index the table defines', async () => {
    const observability = load('../../resources/observability.js') as (options: unknown) => Promise<{ Resources: Record<string, { Properties: Record<string, unknown> }> }>;
    const { Resources } = await observability({
      resolveVariable: async (name: string) => (name === 'self:service' ? 'device-monitoring' : 'prod'),
      resolveConfigurationProperty: async () => ({ devicesSync: {} }),
    });
    const alarm = Resources.DynamoDbThrottlesAlarm!.Properties as {
      AlarmName: string;
      Metrics: { Id: string; Expression?: string; MetricStat?: { Metric: { MetricName: string; Dimensions: { Name: string; Value: unknown }[] } } }[];
    };
    expect(alarm.AlarmName).toBe('device-monitoring-prod-dynamodb-throttles');
    const read = alarm.Metrics.filter((m) => m.MetricStat).map((m) => {
      const index = m.MetricStat!.Metric.Dimensions.find((d) => d.Name === 'GlobalSecondaryIndexName')?.Value ?? 'table';
      return `${m.MetricStat!.Metric.MetricName}@${String(index)}`;
    });
    const definition = load('../../lib/store/table-definition.json') as { GlobalSecondaryIndexes: { IndexName: string }[] };
    const indexes = ['table', ...definition.GlobalSecondaryIndexes.map((i) => i.IndexName)];
    expect(indexes).toEqual(expect.arrayContaining(['GSI1', 'GSI2']));
    expect(read.sort()).toEqual(indexes.flatMap((i) => [`ReadThrottleEvents@${i}`, `WriteThrottleEvents@${i}`]).sort());
    const total = alarm.Metrics.find((m) => m.Expression)!;
    for (const metric of alarm.Metrics.filter((m) => m.MetricStat)) expect(total.Expression).toContain(`FILL(${metric.Id}, 0)`);
    expect(alarm.Metrics.length).toBeLessThanOrEqual(10);
  });
});

describe('memory per function from the measurement at 100k devices (issue 23 finding 8)', () => {
  it('gives each function that holds the inventory at least 1.5x the peak RSS bench/results/memory.json measured', () => {
    const measured = JSON.parse(readFileSync(join(root, 'bench', 'results', 'memory.json'), 'utf8')) as {
      devices: number;
      functions: { name: string; maxRssMB: number }[];
    };
    expect(measured.devices).toBeGreaterThanOrEqual(100_000);
    const functions = load('js-yaml').load(readFileSync(join(root, 'generated', 'functions.yml'), 'utf8')) as Record<string, { memorySize?: number }>;
    expect(measured.functions.map((f) => f.name).sort()).toEqual(['alarmsEvaluateNow', 'alarmsEvaluateOnSchedule', 'devicesSync']);
    for (const { name, maxRssMB } of measured.functions) {
      expect(functions[name]?.memorySize, name).toBeGreaterThanOrEqual(1.5 * maxRssMB);
    }
  });
});
