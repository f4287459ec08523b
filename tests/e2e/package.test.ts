import { beforeAll, describe, expect, it } from 'vitest';
import definition from '#lib/db/table-definition.json';
import { packageStage, resourcesOfType, type CfnResource, type CfnTemplate } from '../support/package';

let prod: CfnTemplate;
beforeAll(async () => {
  prod = await packageStage('prod');
}, 180_000);

describe('serverless package --stage prod (no AWS credentials)', () => {
  it('requires the API key on every API method', () => {
    const methods = resourcesOfType(prod, 'AWS::ApiGateway::Method').filter(([, m]) => m.Properties?.HttpMethod !== 'OPTIONS');
    expect(methods.length).toBeGreaterThan(0);
    const open = methods.filter(([, m]) => m.Properties?.ApiKeyRequired !== true).map(([name]) => name);
    expect(open).toEqual([]);
  });

  it('lets API Gateway generate the prod key instead of shipping a known one', () => {
    const keys = resourcesOfType(prod, 'AWS::ApiGateway::ApiKey');
    expect(keys).toHaveLength(1);
    expect(keys[0]?.[1].Properties?.Value).toBeUndefined();
  });

  it('has a usage plan with throttling and a daily quota', () => {
    const [[, plan] = []] = resourcesOfType(prod, 'AWS::ApiGateway::UsagePlan');
    expect(plan?.Properties).toMatchObject({
      Quota: { Period: 'DAY', Limit: expect.any(Number) },
      Throttle: { RateLimit: expect.any(Number), BurstLimit: expect.any(Number) },
    });
  });

  it('declares one table, keyed as lib/db/table-definition.json says, protected on prod', () => {
    const tables = resourcesOfType(prod, 'AWS::DynamoDB::Table');
    expect(tables).toHaveLength(1);
    const [, table] = tables[0]!;
    expect(table.DeletionPolicy).toBe('Retain');
    expect(table.Properties).toMatchObject({
      KeySchema: definition.KeySchema,
      AttributeDefinitions: definition.AttributeDefinitions,
      GlobalSecondaryIndexes: definition.GlobalSecondaryIndexes,
      BillingMode: 'PAY_PER_REQUEST',
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
      SSESpecification: { SSEEnabled: true },
      TimeToLiveSpecification: { AttributeName: 'expiresAt', Enabled: true },
      DeletionProtectionEnabled: true,
    });
  });

  it('grants DynamoDB actions on this table and its indexes only', () => {
    const dynamo = statements(prod).filter((s) => s.Action.some((a) => a.startsWith('dynamodb:')));
    expect(dynamo.length).toBeGreaterThan(0);
    for (const statement of dynamo) {
      expect(statement.Action).not.toContain('dynamodb:*');
      expect(statement.Action).not.toContain('dynamodb:Scan');
      // each resource is the table's ARN, or its ARN + "/index/*"; never a bare "*"
      for (const resource of statement.Resource) {
        expect(resource).not.toBe('*');
        expect(JSON.stringify(resource)).toContain('{"Fn::GetAtt":["Table","Arn"]}');
      }
    }
  });

  it('stays well under the CloudFormation resource limit', () => {
    expect(Object.keys(prod.Resources).length).toBeLessThan(500);
  });
  it('lets functions read only the two account secrets and the stage\'s provider secrets from SSM, and ships no secret value', () => {
    // two statements: the sign-in function's, and the device providers' (tests/e2e/operations.test.ts says whose roles hold them)
    const ssm = statements(prod).filter((s) => s.Action.some((a) => a.startsWith('ssm:')));
    const resourcesOf = (statement: (typeof ssm)[number]) => statement.Resource.map((r) => JSON.stringify(r));
    expect(ssm.map((s) => s.Action)).toEqual([['ssm:GetParameter'], ['ssm:GetParameter']]);
    const account = ssm.find((s) => resourcesOf(s).some((r) => r.includes('admin-password')))!;
    expect(resourcesOf(account)).toHaveLength(2);
    expect(resourcesOf(account)[0]).toContain(':parameter/device-monitoring/prod/admin-password');
    expect(resourcesOf(account)[1]).toContain(':parameter/device-monitoring/prod/jwt-private-key');
    const providers = ssm.find((s) => s !== account)!;
    expect(resourcesOf(providers)).toHaveLength(1);
    expect(resourcesOf(providers)[0]).toContain(':parameter/device-monitoring/prod/providers/*');
    for (const [, fn] of resourcesOfType(prod, 'AWS::Lambda::Function')) {
      const names = Object.keys(environment(fn));
      for (const secret of ['JWT_PRIVATE_KEY', 'ADMIN_PASSWORD', 'JWT_SECRET', 'JWT_SECRET_PARAM']) expect(names).not.toContain(secret);
      for (const secret of ['WEBEX_ACCESS_TOKEN', 'WEBEX_CLIENT_SECRET', 'WEBEX_REFRESH_TOKEN', 'ZOOM_CLIENT_SECRET']) expect(names).not.toContain(secret);
    }
    expect(JSON.stringify(prod)).not.toContain('local-admin-password');
    expect(JSON.stringify(prod)).not.toContain('PRIVATE KEY');
  });

  it('names the secret parameters to the sign-in function and to the two that call device vendors only', () => {
    const functions = resourcesOfType(prod, 'AWS::Lambda::Function');
    const withSecrets = functions.filter(([, fn]) => Object.keys(environment(fn)).some((name) => name.endsWith('_PARAM'))).map(([name]) => name);
    expect(withSecrets.sort()).toEqual(['DevicesRefreshLambdaFunction', 'DevicesSyncLambdaFunction', 'SessionsSigninLambdaFunction']);
    const [, sync] = functions.find(([name]) => name === 'DevicesSyncLambdaFunction')!;
    expect(environment(sync)).toMatchObject({ WEBEX_CLIENT_SECRET_PARAM: '/device-monitoring/prod/providers/webex-client-secret', ZOOM_CLIENT_SECRET_PARAM: '/device-monitoring/prod/providers/zoom-client-secret', DEVICE_PROVIDERS: '' });
    const [, signin] = functions.find(([name]) => name === 'SessionsSigninLambdaFunction')!;
    expect(environment(signin)).toMatchObject({
      ADMIN_PASSWORD_PARAM: '/device-monitoring/prod/admin-password',
      JWT_PRIVATE_KEY_PARAM: '/device-monitoring/prod/jwt-private-key',
    });
  });

  it('gives every function the public token key as an SSM reference CloudFormation resolves at deploy', () => {
    const functions = resourcesOfType(prod, 'AWS::Lambda::Function');
    expect(functions.length).toBeGreaterThan(1);
    for (const [, fn] of functions) {
      expect(environment(fn).JWT_PUBLIC_KEY).toBe('{{resolve:ssm:/device-monitoring/prod/jwt-public-key}}');
    }
  });

  it('declares the WebSocket API ($connect, $disconnect, subscribe, $default) and lets functions post only to its connections', () => {
    const routes = resourcesOfType(prod, 'AWS::ApiGatewayV2::Route').map(([, r]) => r.Properties?.RouteKey);
    expect(routes.sort()).toEqual(['$connect', '$default', '$disconnect', 'subscribe']);
    // in the roles of the functions that push (tests/e2e/operations.test.ts checks which)
    const manage = statements(prod).filter((s) => s.Action.some((a) => a.startsWith('execute-api:')));
    expect(manage.length).toBeGreaterThan(0);
    for (const statement of manage) {
      expect(statement.Action).toEqual(['execute-api:ManageConnections']);
      expect(statement.Resource).toHaveLength(1);
      expect(JSON.stringify(statement.Resource[0])).toContain('{"Ref":"WebsocketsApi"}');
      expect(JSON.stringify(statement.Resource[0])).toContain('/prod/POST/@connections/*');
    }
    const [, sync] = resourcesOfType(prod, 'AWS::Lambda::Function').find(([name]) => name === 'DevicesSyncLambdaFunction')!;
    expect(JSON.stringify(environment(sync).LIVE_PUSH_ENDPOINT)).toContain('{"Ref":"WebsocketsApi"}');
    expect(JSON.stringify(environment(sync).LIVE_WS_URL)).toContain('wss://');
  });
});

/** Every statement of every IAM role in the template. */
const statements = (template: CfnTemplate) =>
  resourcesOfType(template, 'AWS::IAM::Role').flatMap(([, role]) =>
    (role.Properties?.Policies as { PolicyDocument: { Statement: { Action: string[]; Resource: unknown[] }[] } }[]).flatMap((p) => p.PolicyDocument.Statement),
  );

const environment = (fn: CfnResource): Record<string, unknown> =>
  (fn.Properties?.Environment as { Variables: Record<string, unknown> } | undefined)?.Variables ?? {};

describe('serverless package --stage prod: cursor key', () => {
  it('gives every function the generated cursor key as a deploy-time reference, never a value', () => {
    const secrets = resourcesOfType(prod, 'AWS::SecretsManager::Secret');
    expect(secrets.map(([name]) => name)).toContain('CursorSecret');
    for (const [, fn] of resourcesOfType(prod, 'AWS::Lambda::Function')) {
      expect(environment(fn).CURSOR_SECRET).toEqual({ 'Fn::Join': ['', ['{{resolve:secretsmanager:', { Ref: 'CursorSecret' }, ':SecretString}}']] });
    }
  });
});

describe('serverless package --stage prod: CORS', () => {
  it('answers OPTIONS on every API resource with a method, without API key, through the corsPreflight function', () => {
    const methods = resourcesOfType(prod, 'AWS::ApiGateway::Method');
    const resourceOf = (m: CfnResource) => JSON.stringify(m.Properties?.ResourceId);
    const withMethods = new Set(methods.filter(([, m]) => m.Properties?.HttpMethod !== 'OPTIONS').map(([, m]) => resourceOf(m)));
    const options = methods.filter(([, m]) => m.Properties?.HttpMethod === 'OPTIONS').map(([, m]) => m);
    expect(new Set(options.map(resourceOf))).toEqual(withMethods);
    for (const option of options) {
      expect(option.Properties?.ApiKeyRequired).not.toBe(true);
      const integration = option.Properties?.Integration as { Type?: string; Uri?: unknown };
      expect(integration.Type).toBe('AWS_PROXY');
      expect(JSON.stringify(integration.Uri)).toContain('CorsPreflightLambdaFunction');
    }
  });

  it('gives every function the stage\'s mail domains and webhook ports (any domain and 443, 8443 unless set)', () => {
    for (const [, fn] of resourcesOfType(prod, 'AWS::Lambda::Function')) {
      expect(environment(fn)).toMatchObject({ MAIL_ALLOWED_DOMAINS: '', WEBHOOK_PORTS: '443,8443' });
    }
  });

  it('allows no browser origin on prod unless the stage lists one', () => {
    for (const [, fn] of resourcesOfType(prod, 'AWS::Lambda::Function')) expect(environment(fn).CORS_ORIGINS).toBe('');
  });
});
