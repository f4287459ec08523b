import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Metafile } from 'esbuild';
import { load } from 'js-yaml';
import { beforeAll, describe, expect, it } from 'vitest';
import { importGraph } from '../support/bundles';
import { functionDefs, needsStageSecret, root, routes } from '../../scripts/registry';
import { packageStage, resourcesOfType, type CfnResource, type CfnTemplate } from '../support/package';

/**
 * What `npm run package -- --stage prod` gives an operator (docs/operations.md): tracing,
 * alarms on ourselves with their topic, the dashboard, and least-privilege roles (each
 * function's checked against what its code can reach).
 */
let prod: CfnTemplate;
beforeAll(async () => {
  prod = await packageStage('prod');
}, 240_000);

type Props = Record<string, unknown>;
const props = (r: CfnResource | undefined) => (r?.Properties ?? {}) as Props;
const functions = () => resourcesOfType(prod, 'AWS::Lambda::Function');
interface Alarm {
  id: string;
  AlarmName: string;
  AlarmActions?: unknown;
  OKActions?: unknown;
  Namespace?: string;
  MetricName?: string;
  Metrics?: { MetricStat?: { Metric: { MetricName: string; Dimensions: { Value: { Ref: string } }[] } } }[];
}
const alarms = (): Alarm[] => resourcesOfType(prod, 'AWS::CloudWatch::Alarm').map(([id, r]) => ({ id, ...(props(r) as Omit<Alarm, 'id'>) }));
const logicalId = (name: string) => `${name.charAt(0).toUpperCase()}${name.slice(1)}LambdaFunction`;

/** Every source file's text, to check that a metric an alarm reads is one the code emits. */
const sources = (dir: string): string[] =>
  readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    return statSync(path).isDirectory() ? sources(path) : path.endsWith('.ts') ? [readFileSync(path, 'utf8')] : [];
  });

describe('tracing', () => {
  it('traces every function actively and loads Powertools from its layer', () => {
    expect(functions().length).toBeGreaterThan(0);
    for (const [id, fn] of functions()) {
      expect(props(fn).TracingConfig, id).toEqual({ Mode: 'Active' });
      expect(JSON.stringify(props(fn).Layers), id).toMatch(/\/aws\/service\/powertools\/typescript\/generic\/all\/\d+\.\d+\.\d+/);
    }
  });

  it('traces API Gateway', () => {
    // not in the template: the framework switches the stage's tracing on at deploy (update-stage)
    const config = readFileSync(join(root, 'serverless.yml'), 'utf8');
    expect(config).toMatch(/^provider:\n(?:(?: .*)?\n)*? {2}tracing:\n {4}apiGateway: true\n {4}lambda: true$/m);
  });
});

describe('alarms on ourselves', () => {
  const expected = [
    'api-5xx-rate',
    'api-latency-p99',
    'evaluator-not-running',
    'evaluator-incomplete',
    'sync-failing',
    'notification-failures',
    'dynamodb-throttles',
  ];

  it('declares each alarm of docs/operations.md, each notifying the stage topic when it fires and when it clears', () => {
    const names = alarms().map((a) => a.AlarmName);
    for (const name of expected) expect(names).toContain(`device-monitoring-prod-${name}`);
    const doc = readFileSync(join(root, 'docs', 'operations.md'), 'utf8');
    for (const alarm of alarms()) {
      expect(alarm.AlarmActions, alarm.id).toEqual([{ Ref: 'AlarmTopic' }]);
      expect(alarm.OKActions, alarm.id).toEqual([{ Ref: 'AlarmTopic' }]);
      // the runbook names every alarm (lambda groups by their common stem)
      expect(doc, alarm.AlarmName).toContain(alarm.AlarmName.replace('device-monitoring-prod-', '').replace(/-\d+-of-\d+$/, ''));
    }
    expect(resourcesOfType(prod, 'AWS::SNS::Topic')).toHaveLength(1);
  });

  it('subscribes an e-mail address only when one is configured', () => {
    const [[, subscription] = []] = resourcesOfType(prod, 'AWS::SNS::Subscription');
    expect((subscription as CfnResource & { Condition?: string }).Condition).toBe('HasAlarmEmail');
    expect(props(subscription)).toMatchObject({ Protocol: 'email', TopicArn: { Ref: 'AlarmTopic' } });
  });

  it('watches the Lambda errors and throttles of every function, each in exactly one alarm per metric', () => {
    const lambdaIds = functions().map(([id]) => id).sort();
    for (const metric of ['Errors', 'Throttles']) {
      const watched = alarms()
        .flatMap((a) => a.Metrics ?? [])
        .filter((m) => m.MetricStat?.Metric.MetricName === metric)
        .map((m) => m.MetricStat!.Metric.Dimensions[0]!.Value.Ref)
        .sort();
      expect(watched, metric).toEqual(lambdaIds);
    }
  });

  it('reads only metrics the code publishes in its own namespace', () => {
    const code = [...sources(join(root, 'functions')), ...sources(join(root, 'lib'))].join('\n');
    const ours = alarms().filter((a) => a.Namespace === 'DeviceMonitoring');
    expect(ours.length).toBeGreaterThanOrEqual(4);
    for (const alarm of ours) expect(code, `${alarm.AlarmName} reads ${String(alarm.MetricName)}`).toContain(String(alarm.MetricName));
  });

  it('counts throttling on the table and on each of its indexes in the dynamodb-throttles alarm', () => {
    const alarm = alarms().find((a) => a.AlarmName === 'device-monitoring-prod-dynamodb-throttles')!;
    const indexes = JSON.stringify(alarm.Metrics);
    for (const index of ['GSI1', 'GSI2']) for (const metric of ['ReadThrottleEvents', 'WriteThrottleEvents']) expect(indexes).toMatch(new RegExp(`${metric}[^\\]]*GlobalSecondaryIndexName","Value":"${index}"`));
  });

  it('has one dashboard for the stage showing every alarm', () => {
    const dashboards = resourcesOfType(prod, 'AWS::CloudWatch::Dashboard');
    expect(dashboards).toHaveLength(1);
    const body = JSON.stringify(props(dashboards[0]![1]).DashboardBody);
    for (const alarm of alarms()) expect(body).toContain(`:alarm:${alarm.AlarmName}`);
    for (const metric of ['5XXError', 'Latency', 'EvaluationDuration', 'SyncFailed', 'NotificationsFailed', 'PushesSent', 'ReadThrottleEvents']) {
      expect(body).toContain(metric);
    }
  });
});

describe('least privilege per function', () => {
  interface Statement {
    Sid?: string;
    Action: string[] | string;
  }
  const roleOf = (fn: CfnResource) => {
    const ref = props(fn).Role as { 'Fn::GetAtt': [string, string] };
    return { id: ref['Fn::GetAtt'][0], role: prod.Resources[ref['Fn::GetAtt'][0]] };
  };
  const statementsOf = (role: CfnResource | undefined) =>
    (props(role).Policies as { PolicyDocument: { Statement: Statement[] } }[]).flatMap((p) => p.PolicyDocument.Statement);
  const actionsOf = (role: CfnResource | undefined) => new Set(statementsOf(role).flatMap((s) => [s.Action].flat()));

  const graph = importGraph;
  const importsPackage = (metafile: Metafile, name: string) =>
    Object.values(metafile.inputs).some((input) => input.imports.some((i) => i.path === name));

  it('lets functions share a role only when they are granted the same statements', () => {
    const grantsByRole = new Map<string, string>();
    for (const [id, fn] of functions()) {
      const { id: roleId, role } = roleOf(fn);
      const grants = JSON.stringify(statementsOf(role));
      expect(grantsByRole.get(roleId) ?? grants, id).toBe(grants);
      grantsByRole.set(roleId, grants);
    }
    expect(prod.Resources.IamRoleLambdaExecution).toBeUndefined();
    // distinct roles only: one per distinct set of statements
    expect(new Set(grantsByRole.values()).size).toBe(grantsByRole.size);
  });

  it('grants each function exactly the statements resources/permissions.yml names for it', async () => {
    const permissions = load(readFileSync(join(root, 'resources', 'permissions.yml'), 'utf8')) as { default: string[]; functions: Record<string, string[]> };
    for (const fn of await functionDefs()) {
      const resource = prod.Resources[logicalId(fn.functionName)];
      expect(resource, fn.functionName).toBeDefined();
      const sids = statementsOf(roleOf(resource!).role).flatMap((s) => (s.Sid ? [s.Sid] : []));
      expect(sids.sort(), fn.functionName).toEqual([...(permissions.functions[fn.functionName] ?? permissions.default)].sort());
    }
  });

  it('knows what every function that is not GET-only may write: each is listed in resources/permissions.yml', async () => {
    const permissions = load(readFileSync(join(root, 'resources', 'permissions.yml'), 'utf8')) as { functions: Record<string, string[]> };
    const unlisted = (await functionDefs())
      .filter((fn) => !fn.events.every((e) => (e as { http?: { method: string } }).http?.method === 'get'))
      .map((fn) => fn.functionName)
      .filter((name) => !(name in permissions.functions));
    expect(unlisted).toEqual([]);
  });

  it('grants no action the function\'s code cannot use', async () => {
    const offenders: string[] = [];
    for (const fn of await functionDefs()) {
      const metafile = await graph(fn.handlerFile);
      const reaches = {
        table: 'lib/store/client.ts' in metafile.inputs,
        tableAdmin: 'lib/store/definition.ts' in metafile.inputs,
        secrets: importsPackage(metafile, '@aws-sdk/client-ssm'),
        mail: importsPackage(metafile, '@aws-sdk/client-sesv2'),
        push: 'lib/adapters/connections.ts' in metafile.inputs,
        nudge: 'lib/adapters/nudge.ts' in metafile.inputs,
        // an asynchronous invocation's on-failure destination is the stage's alarm topic (Lambda publishes with the function's role)
        failureTopic: resourcesOfType(prod, 'AWS::Lambda::EventInvokeConfig').some(
          ([, config]) =>
            JSON.stringify(props(config).FunctionName) === JSON.stringify({ Ref: logicalId(fn.functionName) }) &&
            JSON.stringify(props(config).DestinationConfig) === JSON.stringify({ OnFailure: { Destination: { Ref: 'AlarmTopic' } } }),
        ),
      };
      const onlyReads = fn.events.length > 0 && fn.events.every((e) => (e as { http?: { method: string } }).http?.method === 'get');
      const actions = actionsOf(roleOf(prod.Resources[logicalId(fn.functionName)]!).role);
      const has = (prefix: string) => [...actions].filter((a) => a.startsWith(prefix));
      const gained = [
        ...(reaches.table ? [] : has('dynamodb:')),
        ...(reaches.tableAdmin ? [] : [...actions].filter((a) => a === 'dynamodb:CreateTable' || a === 'dynamodb:DescribeTable')),
        ...(onlyReads ? [...actions].filter((a) => /^dynamodb:(Put|Update|Delete|BatchWrite)/.test(a)) : []),
        ...(reaches.secrets ? [] : has('ssm:')),
        ...(reaches.secrets ? [] : has('secretsmanager:')),
        ...(reaches.mail ? [] : has('ses:')),
        ...(reaches.failureTopic ? [] : has('sns:')),
        ...(reaches.nudge ? [] : has('lambda:')),
        ...(reaches.push ? [] : has('execute-api:')),
      ];
      if (gained.length) offenders.push(`${fn.functionName}: ${gained.join(', ')}`);
      // and the converse: what the code reaches, the role allows
      if (reaches.secrets) expect(has('ssm:'), fn.functionName).toEqual(['ssm:GetParameter']);
      // the stage secret: exactly the routes whose binding loads it (scripts/registry.ts needsStageSecret)
      const route = (await routes()).find((r) => r.functionName === fn.functionName);
      expect(has('secretsmanager:'), fn.functionName).toEqual(route && needsStageSecret(route.contract) ? ['secretsmanager:GetSecretValue'] : []);
      if (reaches.mail) expect(has('ses:'), fn.functionName).toEqual(['ses:SendEmail']);
      if (reaches.push) expect(has('execute-api:'), fn.functionName).toEqual(['execute-api:ManageConnections']);
      if (reaches.nudge) expect(has('lambda:'), fn.functionName).toEqual(['lambda:InvokeFunction']);
      if (reaches.failureTopic) expect(has('sns:'), fn.functionName).toEqual(['sns:Publish']);
    }
    expect(offenders).toEqual([]);
  }, 120_000);
});
