'use strict';

/**
 * Least privilege per function, in plain CloudFormation (package and deploy; offline untouched).
 *
 * The framework compiles one role, `IamRoleLambdaExecution`, for every function. Before the
 * template is written, this gives each function a role with the shared role's trust policy and
 * unnamed statements (log groups, X-Ray) plus only the statements of
 * provider.iam.role.statements whose Sid resources/permissions.yml names for that function
 * (`default` when it is not listed). Functions granted the same statements share that role.
 * A name or Sid that does not exist stops packaging, so the file cannot drift from the functions.
 */
const { readFileSync } = require('node:fs');
const { join } = require('node:path');
const TemplatePlugin = require('./template-plugin');

const SHARED_ROLE = 'IamRoleLambdaExecution';
const PERMISSIONS_FILE = 'resources/permissions.yml';

class PerFunctionRoles extends TemplatePlugin {

  permissions() {
    // js-yaml ships with the framework (and is a devDependency here)
    const yaml = require('js-yaml');
    return yaml.load(readFileSync(join(this.serverless.config.servicePath, PERMISSIONS_FILE), 'utf8'));
  }

  rewrite(template) {
    const { service } = this.serverless;
    const naming = this.serverless.getProvider('aws').naming;
    const shared = template.Resources[SHARED_ROLE];
    if (!shared) return;
    const fail = (message) => this.fail(`${PERMISSIONS_FILE}: ${message}`);

    const [policy] = shared.Properties.Policies;
    const statements = policy.PolicyDocument.Statement;
    // With WebSocket events the framework adds to the shared role an unnamed grant of
    // ManageConnections on every API's connections (`*/@connections/*`); the functions that
    // push get the narrow, named LivePush statement instead, so that grant goes.
    const frameworkWebsocketGrant = (s) => !s.Sid && JSON.stringify(s.Action) === '["execute-api:ManageConnections"]';
    // Likewise for an asynchronous invocation's destination (`destinations:`): the framework grants
    // the target to every function; the function that has one names its statement instead.
    const frameworkDestinationGrant = (s) => !s.Sid && ['sns:Publish', 'sqs:SendMessage', 'lambda:InvokeFunction', 'events:PutEvents'].includes(s.Action);
    const common = statements.filter((s) => !s.Sid && !frameworkWebsocketGrant(s) && !frameworkDestinationGrant(s));
    const bySid = new Map(statements.filter((s) => s.Sid).map((s) => [s.Sid, s]));
    const { default: fallback = [], functions: listed = {} } = this.permissions();
    const names = Object.keys(service.functions ?? {});
    for (const name of Object.keys(listed)) if (!names.includes(name)) fail(`no function named ${name}`);

    const stage = this.serverless.getProvider('aws').getStage();
    for (const name of names) {
      const fn = template.Resources[naming.getLambdaLogicalId(name)];
      if (!fn) continue;
      const sids = [...(listed[name] ?? fallback)].sort();
      for (const sid of sids) if (!bySid.has(sid)) fail(`${name} names ${sid}, which no statement of provider.iam.role.statements has`);
      // functions granted the same statements share one role: least privilege for each, and
      // a handful of roles instead of one per function (CloudFormation allows 500 resources)
      const roleId = `IamRoleLambda${sids.join('') || 'LogsOnly'}`;
      template.Resources[roleId] ??= {
        Type: 'AWS::IAM::Role',
        Properties: {
          ...Object.fromEntries(Object.entries(shared.Properties).filter(([key]) => key !== 'RoleName')),
          Policies: [
            {
              PolicyName: { 'Fn::Join': ['-', [service.service, stage, 'lambda', ...sids.map((sid) => sid.toLowerCase())]] },
              PolicyDocument: { ...policy.PolicyDocument, Statement: [...common, ...sids.map((sid) => bySid.get(sid))] },
            },
          ],
        },
      };
      fn.Properties.Role = { 'Fn::GetAtt': [roleId, 'Arn'] };
      if (Array.isArray(fn.DependsOn)) fn.DependsOn = fn.DependsOn.map((d) => (d === SHARED_ROLE ? roleId : d));
    }
    delete template.Resources[SHARED_ROLE];
    if (JSON.stringify(template).includes(`"${SHARED_ROLE}"`)) fail(`something still refers to ${SHARED_ROLE}`);
  }
}

module.exports = PerFunctionRoles;
