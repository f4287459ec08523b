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

/** One alarm over a group of functions: the sum of their `metric` above 0 in 2 of 3 five-minute periods. */
const lambdaAlarm = ({ service, stage, metric, group, index, count }) => ({
  Type: 'AWS::CloudWatch::Alarm',
  Properties: {
    AlarmName: `${service}-${stage}-lambda-${metric.toLowerCase()}-${index + 1}-of-${count}`,
    AlarmDescription: `Lambda ${metric} in ${group.join(', ')} (docs/operations.md)`,
    Metrics: [
      ...group.map((name, i) => ({
        Id: `f${i}`,
        ReturnData: false,
        MetricStat: {
          Metric: { Namespace: 'AWS/Lambda', MetricName: metric, Dimensions: [{ Name: 'FunctionName', Value: { Ref: logicalId(name) } }] },
          Period: 300,
          Stat: 'Sum',
        },
      })),
      { Id: 'total', Label: `${metric} of ${group.length} functions`, Expression: group.map((_, i) => `FILL(f${i}, 0)`).join(' + '), ReturnData: true },
    ],
    EvaluationPeriods: 3,
    DatapointsToAlarm: 2,
    Threshold: 0,
    ComparisonOperator: 'GreaterThanThreshold',
    TreatMissingData: 'notBreaching',
    AlarmActions: [{ Ref: 'AlarmTopic' }],
    OKActions: [{ Ref: 'AlarmTopic' }],
  },
});

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
    widget('DynamoDB throttled reads / writes', [
      ['AWS/DynamoDB', 'ReadThrottleEvents', 'TableName', `${service}-${stage}`],
      ['AWS/DynamoDB', 'WriteThrottleEvents', 'TableName', `${service}-${stage}`],
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
const STATIC_ALARMS = ['api-5xx-rate', 'api-latency-p99', 'evaluator-not-running', 'evaluator-incomplete', 'sync-failing', 'provider-failing', 'notification-failures', 'dynamodb-throttles'];

module.exports = async ({ resolveVariable, resolveConfigurationProperty }) => {
  const service = await resolveVariable('self:service');
  const stage = await resolveVariable('sls:stage');
  // `functions` is one map, or a list of maps (one file per area)
  const declared = (await resolveConfigurationProperty(['functions'])) ?? {};
  const names = Object.keys(Array.isArray(declared) ? Object.assign({}, ...declared) : declared).sort();
  const Resources = {};
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
