'use strict';

/**
 * One invoke role for the REST API instead of one resource policy per function (package and
 * deploy; offline untouched). CloudFormation allows 500 resources per stack, and the framework
 * gives every HTTP function an `AWS::Lambda::Permission` (98 of them with issue 26's routes).
 * API Gateway may instead invoke a Lambda proxy integration with an IAM role of its own
 * (`Integration.Credentials`): this plugin removes the REST API's permissions, points every
 * Lambda proxy integration at the role `ApiGatewayInvokeRole`, which API Gateway alone may
 * assume and which may invoke only this stage's functions. Schedules and the WebSocket API keep
 * their own permissions. docs/guide/rules/deploy.md "API Gateway invokes the REST functions through one role".
 */
const TemplatePlugin = require('./template-plugin');

const ROLE = 'ApiGatewayInvokeRole';

class ApiInvokeRole extends TemplatePlugin {
  rewrite(template) {
    const resources = template.Resources;
    const isRestPermission = (name, resource) =>
      resource.Type === 'AWS::Lambda::Permission' && resource.Properties?.Principal === 'apigateway.amazonaws.com' && name.endsWith('LambdaPermissionApiGateway');
    const removed = new Set(Object.entries(resources).filter(([name, resource]) => isRestPermission(name, resource)).map(([name]) => name));
    if (removed.size === 0) return;
    const functions = new Set();
    for (const resource of Object.values(resources)) {
      const integration = resource.Type === 'AWS::ApiGateway::Method' ? resource.Properties?.Integration : undefined;
      if (integration?.Type !== 'AWS_PROXY') continue;
      integration.Credentials = { 'Fn::GetAtt': [ROLE, 'Arn'] };
      const target = JSON.stringify(integration.Uri).match(/"Fn::GetAtt":\["([A-Za-z0-9]+)","Arn"\]/);
      if (!target) this.fail(`api-invoke-role: a Lambda proxy integration without a function: ${JSON.stringify(integration.Uri)}`);
      functions.add(target[1]);
    }
    for (const resource of Object.values(resources)) {
      if (Array.isArray(resource.DependsOn)) resource.DependsOn = resource.DependsOn.filter((name) => !removed.has(name));
      else if (removed.has(resource.DependsOn)) delete resource.DependsOn;
    }
    for (const name of removed) delete resources[name];
    resources[ROLE] = {
      Type: 'AWS::IAM::Role',
      Properties: {
        AssumeRolePolicyDocument: {
          Version: '2012-10-17',
          Statement: [
            {
              Effect: 'Allow',
              Principal: { Service: 'apigateway.amazonaws.com' },
              // API Gateway's documented trust for integration roles; only a principal allowed
              // iam:PassRole on this role (in this account) can name it as an integration's credentials
              Action: ['sts:AssumeRole'],
            },
          ],
        },
        Policies: [
          {
            PolicyName: 'invoke-api-functions',
            PolicyDocument: {
              Version: '2012-10-17',
              Statement: [
                {
                  Sid: 'ApiFunctionsInvoke',
                  Effect: 'Allow',
                  Action: ['lambda:InvokeFunction'],
                  Resource: [...functions].sort().map((fn) => ({ 'Fn::GetAtt': [fn, 'Arn'] })),
                },
              ],
            },
          },
        ],
      },
    };
  }
}

module.exports = ApiInvokeRole;
