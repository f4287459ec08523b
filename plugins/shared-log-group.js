'use strict';

/**
 * One log group for every function of the stage (package and deploy; offline untouched).
 *
 * The framework declares a log group per function; with ~90 functions, their log groups,
 * invoke permissions and API methods pass CloudFormation's 500-resource limit per stack.
 * Lambda's logging configuration lets every function write to one group instead:
 * `/aws/lambda/<service>-<stage>`, with the same retention, inside the prefix the roles
 * already grant (`/aws/lambda/<service>-<stage>*`). Each log stream still names its function,
 * and every Powertools line carries `function_name`, so operators search one group.
 */
const TemplatePlugin = require('./template-plugin');

const SHARED = 'FunctionsLogGroup';

class SharedLogGroup extends TemplatePlugin {
  rewrite(template) {
    const { service } = this.serverless;
    const provider = this.serverless.getProvider('aws');
    const perFunction = new Set();
    let retention;
    for (const name of Object.keys(service.functions ?? {})) {
      const fn = template.Resources[provider.naming.getLambdaLogicalId(name)];
      const logGroupId = provider.naming.getLogGroupLogicalId(name);
      const logGroup = template.Resources[logGroupId];
      if (!fn || !logGroup) continue;
      retention ??= logGroup.Properties.RetentionInDays;
      perFunction.add(logGroupId);
      fn.Properties.LoggingConfig = { LogGroup: { Ref: SHARED } };
      if (Array.isArray(fn.DependsOn)) fn.DependsOn = [...new Set(fn.DependsOn.map((d) => (d === logGroupId ? SHARED : d)))];
    }
    if (perFunction.size === 0) return;
    for (const id of perFunction) delete template.Resources[id];
    template.Resources[SHARED] = {
      Type: 'AWS::Logs::LogGroup',
      Properties: {
        LogGroupName: `/aws/lambda/${service.service}-${provider.getStage()}`,
        ...(retention ? { RetentionInDays: retention } : {}),
      },
    };
    const text = JSON.stringify(template);
    for (const id of perFunction) {
      if (text.includes(`"${id}"`)) this.fail(`shared-log-group: something still refers to ${id}`);
    }
  }
}

module.exports = SharedLogGroup;
