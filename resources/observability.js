'use strict';

/**
 * The parts of the stage's observability that depend on the function list, resolved by
 * serverless.yml (`${file(./resources/observability.js)}`):
 * - Lambda errors and throttles alarms. One alarm may read at most 10 metrics, and there is
 *   no stage-wide Lambda metric, so functions are grouped by ten, each alarm summing the
 *   group's errors (or throttles) with metric math.
 * - One CloudWatch dashboard per stage: the API, every alarm's figure, our EMF metrics.
 * Static alarms and the SNS topic are in observability.yml; docs/operations.md explains both.
 */
const GROUP = 10;
const NAMESPACE = 'DeviceMonitoring';

const logicalId = (name) => `${name.charAt(0).toUpperCase()}${name.slice(1).replace(/-/g, 'Dash').replace(/_/g, 'Underscore')}LambdaFunction`;

const groups = (names) => Array.from({ length: Math.ceil(names.length / GROUP) }, (_, i) => names.slice(i * GROUP, (i + 1) * GROUP));

/** An alarm on the sum of `metrics` (metric math, FILL 0) above 0 in 2 of 3 five-minute periods. */
const sumAlarm = ({ name, description, metrics, label }) => ({
  Type: 'AWS::CloudWatch::Alarm',
  Properties: {
    AlarmName: name,
    AlarmDescription: description,
    Metrics: [...metrics, { Id: 'total', Label: label, Expression: metrics.map((m) => `FILL(${m.Id}, 0)`).join(' + '), ReturnData: true }],
    EvaluationPeriods: 3,
    DatapointsToAlarm: 2,
    Threshold: 0,
    ComparisonOperator: 'GreaterThanThreshold',
    TreatMissingData: 'notBreaching',
    AlarmActions: [{ Ref: 'AlarmTopic' }],
    OKActions: [{ Ref: 'AlarmTopic' }],
  },
});

/** A metric of a sum alarm: one five-minute Sum. */
const summed = (id, namespace, metricName, dimensions) => ({
  Id: id,
  ReturnData: false,
  MetricStat: { Metric: { Namespace: namespace, MetricName: metricName, Dimensions: dimensions }, Period: 300, Stat: 'Sum' },
});

/** One alarm over a group of functions: the sum of their `metric` above 0 in 2 of 3 five-minute periods. */
const lambdaAlarm = ({ service, stage, metric, group, index, count }) =>
  sumAlarm({
    name: `${service}-${stage}-lambda-${metric.toLowerCase()}-${index + 1}-of-${count}`,
    description: `Lambda ${metric} in ${group.join(', ')} (docs/operations.md)`,
    metrics: group.map((name, i) => summed(`f${i}`, 'AWS/Lambda', metric, [{ Name: 'FunctionName', Value: { Ref: logicalId(name) } }])),
    label: `${metric} of ${group.length} functions`,
  });

/** The table's global secondary indexes, from the one definition the table is created from. */
const indexNames = () => require('../lib/store/table-definition.json').GlobalSecondaryIndexes.map((index) => index.IndexName);

/**
 * DynamoDB throttling, table and indexes: a throttled write to the table is counted on the
 * table, but a write the table accepted can still be throttled by an index's own capacity, and
 * index reads count on the index only (dimension GlobalSecondaryIndexName). One alarm sums them
 * all (2 + 2 per index metrics, within CloudWatch's 10 per alarm).
 */
const throttleAlarm = ({ service, stage }) => {
  const table = { Name: 'TableName', Value: { Ref: 'Table' } };
  const sources = [
    { id: 'table', dimensions: [table] },
    ...indexNames().map((index) => ({ id: index.toLowerCase().replace(/[^a-z0-9]/g, ''), dimensions: [table, { Name: 'GlobalSecondaryIndexName', Value: index }] })),
  ];
  const metrics = sources.flatMap(({ id, dimensions }) =>
    ['Read', 'Write'].map((kind) => summed(`${kind.toLowerCase()}_${id}`, 'AWS/DynamoDB', `${kind}ThrottleEvents`, dimensions)),
  );
  if (metrics.length > 9) throw new Error('dynamodb-throttles: more than 9 metrics in one alarm; split it');
  return sumAlarm({
    name: `${service}-${stage}-dynamodb-throttles`,
    description: 'The table or one of its indexes throttled reads or writes in 2 of the last 3 five-minute periods (docs/operations.md)',
    metrics,
    label: 'throttled reads + writes (table and indexes)',
  });
};

/** A metric widget; `{region}` is replaced by the stack's region (Fn::Join below). */
const widget = (title, metrics, extra = {}) => ({
  type: 'metric',
  width: 12,
  height: 6,
  properties: { title, region: '{region}', view: 'timeSeries', stat: 'Sum', period: 300, metrics, ...extra },
});

const dashboard = ({ service, stage, alarmNames }) => {
  const api = ['AWS/ApiGateway'];
  const apiName = { ApiName: `${stage}-${service}` };
  const ours = (area, name, options = {}) => [NAMESPACE, name, 'service', service, 'stage', stage, 'area', area, options];
  const prefix = `${service}-${stage}-`;
  const widgets = [
    { type: 'alarm', width: 24, height: 4, properties: { title: 'Alarms', alarms: alarmNames.map((n) => `arn:aws:cloudwatch:{region}:{account}:alarm:${n}`) } },
    widget('API requests and 5xx / 4xx', [
      [...api, 'Count', 'ApiName', apiName.ApiName],
      [...api, '5XXError', 'ApiName', apiName.ApiName],
      [...api, '4XXError', 'ApiName', apiName.ApiName],
    ]),
    widget('API latency (ms)', [
      [...api, 'Latency', 'ApiName', apiName.ApiName, { stat: 'p50' }],
      [...api, 'Latency', 'ApiName', apiName.ApiName, { stat: 'p99' }],
    ]),
    widget('Lambda errors by function', [[{ expression: `SEARCH('{AWS/Lambda,FunctionName} MetricName="Errors" "${prefix}"', 'Sum', 300)`, id: 'e' }]]),
    widget('Lambda throttles by function', [[{ expression: `SEARCH('{AWS/Lambda,FunctionName} MetricName="Throttles" "${prefix}"', 'Sum', 300)`, id: 't' }]]),
    widget('Request latency p99 by area (ms)', [[{ expression: `SEARCH('{${NAMESPACE},area,service,stage} MetricName="Latency" stage="${stage}"', 'p99', 300)`, id: 'l' }]]),
    widget('5xx by function', [[{ expression: `SEARCH('{${NAMESPACE},function,service,stage} MetricName="Status5xx" stage="${stage}"', 'Sum', 300)`, id: 's' }]]),
    widget('Evaluation: runs, complete, alarms raised / cleared', [
      ours('evaluation', 'EvaluationRuns'),
      ours('evaluation', 'EvaluationComplete', { stat: 'Minimum' }),
      ours('evaluation', 'AlarmsRaised'),
      ours('evaluation', 'AlarmsCleared'),
      ours('evaluation', 'AlarmsPending'),
    ]),
    widget('Evaluation duration (ms)', [ours('evaluation', 'EvaluationDuration', { stat: 'Maximum' }), ours('evaluation', 'EvaluationDuration', { stat: 'p50' })]),
    widget('Sync: runs, failures, devices changed, skipped as invalid', [
      ours('sync', 'SyncRuns'),
      ours('sync', 'SyncFailed'),
      ours('sync', 'DevicesChanged'),
      ours('sync', 'DevicesSkippedInvalid'),
    ]),
    widget('Sync duration (ms)', [ours('sync', 'SyncDuration', { stat: 'Maximum' })]),
    widget('Device providers: failing, and per provider failed / held removals', [
      ours('sync', 'ProvidersFailing', { stat: 'Maximum' }),
      [{ expression: `SEARCH('{${NAMESPACE},provider,service,stage} MetricName="ProviderSyncFailed" stage="${stage}"', 'Maximum', 300)`, id: 'p' }],
      [{ expression: `SEARCH('{${NAMESPACE},provider,service,stage} MetricName="ProviderHeldRemovals" stage="${stage}"', 'Maximum', 300)`, id: 'h' }],
    ]),
    widget('Notifications: sent, retried, failed, suppressed', [
      ours('notifications', 'NotificationsSent'),
      ours('notifications', 'NotificationsRetried'),
      ours('notifications', 'NotificationsFailed'),
      ours('notifications', 'NotificationsSuppressed'),
    ]),
    widget('Live pushes: sent, gone connections', [ours('live', 'PushesSent'), ours('live', 'ConnectionsGone')]),
    widget('DynamoDB throttled reads / writes (table and indexes)', [
      ['AWS/DynamoDB', 'ReadThrottleEvents', 'TableName', `${service}-${stage}`],
      ['AWS/DynamoDB', 'WriteThrottleEvents', 'TableName', `${service}-${stage}`],
      ...indexNames().flatMap((index) => [
        ['AWS/DynamoDB', 'ReadThrottleEvents', 'TableName', `${service}-${stage}`, 'GlobalSecondaryIndexName', index],
        ['AWS/DynamoDB', 'WriteThrottleEvents', 'TableName', `${service}-${stage}`, 'GlobalSecondaryIndexName', index],
      ]),
    ]),
  ];
  // CloudFormation fills in region and account: the body is joined around them
  const body = JSON.stringify({ widgets });
  const parts = body.split(/(\{region\}|\{account\})/).map((part) => {
    if (part === '{region}') return { Ref: 'AWS::Region' };
    if (part === '{account}') return { Ref: 'AWS::AccountId' };
    return part;
  });
  return { Type: 'AWS::CloudWatch::Dashboard', Properties: { DashboardName: `${service}-${stage}`, DashboardBody: { 'Fn::Join': ['', parts] } } };
};

/** Names of the alarms observability.yml declares (for the dashboard's alarm widget). */
const STATIC_ALARMS = ['api-5xx-rate', 'api-latency-p99', 'evaluator-not-running', 'evaluator-incomplete', 'sync-failing', 'provider-failing', 'notification-failures'];

module.exports = async ({ resolveVariable, resolveConfigurationProperty }) => {
  const service = await resolveVariable('self:service');
  const stage = await resolveVariable('sls:stage');
  // `functions` is one map, or a list of maps (one file per area)
  const declared = (await resolveConfigurationProperty(['functions'])) ?? {};
  const names = Object.keys(Array.isArray(declared) ? Object.assign({}, ...declared) : declared).sort();
  const Resources = { DynamoDbThrottlesAlarm: throttleAlarm({ service, stage }) };
  for (const metric of ['Errors', 'Throttles']) {
    const all = groups(names);
    all.forEach((group, index) => {
      Resources[`Lambda${metric}Alarm${index + 1}`] = lambdaAlarm({ service, stage, metric, group, index, count: all.length });
    });
  }
  const alarmNames = [
    ...STATIC_ALARMS.map((n) => `${service}-${stage}-${n}`),
    ...Object.values(Resources).map((r) => r.Properties.AlarmName),
  ];
  Resources.Dashboard = dashboard({ service, stage, alarmNames });
  return { Resources };
};
