import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import definition from '#lib/store/table-definition.json';
import { apiOperations, packageStage, resourcesOfType, type CfnResource, type CfnTemplate } from '../support/package';
import { root } from '../../scripts/registry';
import { routes } from '../support/routes';

/** Extra routes packaged once more to measure what one route costs (resources/synthetic-routes.js). */
const SYNTHETIC = 10;

let prod: CfnTemplate;
let grown: CfnTemplate;
beforeAll(async () => {
  prod = await packageStage('prod');
  grown = await packageStage('prod', { syntheticRoutes: SYNTHETIC });
}, 900_000);

describe('serverless package --stage prod (no AWS credentials)', () => {
  it('declares every route of the contracts in the REST API, with the same method, path and key requirement', async () => {
    const declared = apiOperations(prod).filter((o) => o.method !== 'OPTIONS').map((o) => `${o.method} ${o.path} key=${o.keyRequired}`);
    // every route needs x-api-key (DESIGN D9) but a vendor's webhook: the contracts' `private`
    const contracts = (await routes()).map((r) => `${r.method} /${r.path} key=${r.private}`);
    expect(declared.sort()).toEqual(contracts.sort());
    expect(declared.length).toBeGreaterThan(100);
  });

  it('reads the API key from the x-api-key header, as the usage plan meters it', () => {
    const body = prod.Resources.ApiGatewayRestApi!.Properties!.Body as Record<string, unknown>;
    expect(body['x-amazon-apigateway-api-key-source']).toBe('HEADER');
    expect(body.components).toEqual({ securitySchemes: { api_key: { type: 'apiKey', name: 'x-api-key', in: 'header' } } });
    // the body is the whole API: nothing declared beside it, and a dropped route leaves API Gateway too
    expect(prod.Resources.ApiGatewayRestApi!.Properties!.Mode).toBe('overwrite');
    expect(resourcesOfType(prod, 'AWS::ApiGateway::Method')).toEqual([]);
    expect(resourcesOfType(prod, 'AWS::ApiGateway::Resource')).toEqual([]);
  });

  it('declares the REST API in a valid OpenAPI document, which API Gateway must import whole or fail the deploy', async () => {
    const api = prod.Resources.ApiGatewayRestApi!.Properties!;
    expect(api.FailOnWarnings).toBe(true);
    const dir = mkdtempSync(join(tmpdir(), 'rest-api-body-'));
    writeFileSync(join(dir, 'body.json'), JSON.stringify(api.Body));
    // OpenAPI's own structure, path parameters, operation ids, a 2xx answer each (an operation
    // without `security` is open, as API Gateway reads it: the preflights)
    const rules = ['struct', 'operation-2xx-response', 'path-parameters-defined', 'operation-operationId-unique', 'no-identical-paths'];
    writeFileSync(join(dir, 'redocly.yaml'), `rules:\n${rules.map((rule) => `  ${rule}: error\n`).join('')}telemetry: off\n`);
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [join(root, 'node_modules/@redocly/cli/bin/cli.js'), 'lint', join(dir, 'body.json'), '--config', join(dir, 'redocly.yaml'), '--format', 'json'],
      { cwd: dir, env: { ...process.env, REDOCLY_TELEMETRY: 'off', NO_UPDATE_NOTIFIER: '1' }, maxBuffer: 20 * 1024 * 1024 },
    ).catch((failure: { stdout?: string }) => ({ stdout: failure.stdout ?? '' }));
    const report = JSON.parse(stdout) as { problems: { ruleId: string; message: string; location: { pointer?: string }[] }[] };
    expect(report.problems.map((p) => `${p.ruleId} at ${p.location[0]?.pointer ?? '?'}: ${p.message}`)).toEqual([]);
  }, 60_000);

  it('deploys the stage from a deployment named after the API definition, which the key and usage plan wait for', () => {
    const deployments = resourcesOfType(prod, 'AWS::ApiGateway::Deployment');
    expect(deployments).toHaveLength(1);
    const [[id, deployment]] = deployments as [[string, CfnResource]];
    expect(id).toMatch(/^ApiGatewayDeployment[0-9a-f]{12}$/);
    expect(deployment.Properties).toEqual({ RestApiId: { Ref: 'ApiGatewayRestApi' }, StageName: 'prod' });
    expect(resourcesOfType(prod, 'AWS::ApiGateway::UsagePlan')[0]![1].DependsOn).toBe(id);
    expect(resourcesOfType(prod, 'AWS::ApiGateway::ApiKey')[0]![1].DependsOn).toBe(id);
    // more routes, another definition, another deployment
    expect(resourcesOfType(grown, 'AWS::ApiGateway::Deployment')[0]![0]).not.toBe(id);
  });

  it('runs every function on Lambda\'s nodejs22.x, bundled for node22', () => {
    const functions = resourcesOfType(prod, 'AWS::Lambda::Function');
    expect(functions.length).toBeGreaterThan(100);
    for (const [id, fn] of functions) expect(fn.Properties?.Runtime, id).toBe('nodejs22.x');
    expect(readFileSync(join(root, 'serverless.yml'), 'utf8')).toMatch(/^ {2}esbuild:\n(?: {4}.*\n)*? {4}target: node22\n/m);
  });

  it('lets API Gateway generate the prod key instead of shipping a known one', () => {
    const keys = resourcesOfType(prod, 'AWS::ApiGateway::ApiKey');
    expect(keys).toHaveLength(1);
    expect(keys[0]?.[1].Properties?.Value).toBeUndefined();
    // operators find it by the stack output (docs/guide/stages.md)
    expect(prod.Outputs?.ApiKeyId).toMatchObject({ Value: { Ref: keys[0]![0] } });
  });

  it('has a usage plan with throttling and a daily quota', () => {
    const [[, plan] = []] = resourcesOfType(prod, 'AWS::ApiGateway::UsagePlan');
    expect(plan?.Properties).toMatchObject({
      Quota: { Period: 'DAY', Limit: expect.any(Number) },
      Throttle: { RateLimit: expect.any(Number), BurstLimit: expect.any(Number) },
    });
  });

  it('declares one table, keyed as lib/store/table-definition.json says, protected on prod', () => {
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

  it('holds 200 routes with 10% of CloudFormation\'s 500 to spare, by the measured cost of a route (docs/adr/0561)', async () => {
    const count = (t: CfnTemplate) => Object.keys(t.Resources).length;
    const routeCount = (await routes()).length;
    const perRoute = (count(grown) - count(prod)) / SYNTHETIC;
    const projected = count(prod) + (200 - routeCount) * perRoute;
    const byType = (t: CfnTemplate) => {
      const counts = new Map<string, number>();
      for (const { Type } of Object.values(t.Resources)) counts.set(Type, (counts.get(Type) ?? 0) + 1);
      return [...counts].sort(([, a], [, b]) => b - a).map(([type, n]) => `${n} ${type}`);
    };
    console.log(
      `prod template: ${count(prod)} resources for ${routeCount} routes (${byType(prod).join(', ')}); ` +
        `${SYNTHETIC} more routes add ${count(grown) - count(prod)}: ${perRoute} a route; 200 routes: ${projected}`,
    );
    expect(count(prod)).toBeLessThanOrEqual(300);
    // a route is its function, and a fifth of the Lambda errors and throttles alarm pair of its group of ten
    expect(perRoute).toBeLessThanOrEqual(1.5);
    expect(projected).toBeLessThanOrEqual(500 * 0.9);
  });

  it('lets API Gateway invoke the REST functions through one role, not one resource policy per function', () => {
    const restPermissions = resourcesOfType(prod, 'AWS::Lambda::Permission').filter(([name]) => name.endsWith('LambdaPermissionApiGateway'));
    expect(restPermissions).toEqual([]);
    const role = prod.Resources.ApiGatewayInvokeRole as CfnResource & { Properties: { AssumeRolePolicyDocument: unknown; Policies: { PolicyDocument: { Statement: { Action: string[]; Resource: unknown[] }[] } }[] } };
    expect(JSON.stringify(role.Properties.AssumeRolePolicyDocument)).toContain('"Service":"apigateway.amazonaws.com"');
    const [statement] = role.Properties.Policies[0]!.PolicyDocument.Statement;
    expect(statement!.Action).toEqual(['lambda:InvokeFunction']);
    const invocable = new Set(statement!.Resource.map((r) => JSON.stringify(r)));
    const operations = apiOperations(prod);
    expect(operations.length).toBeGreaterThan(150);
    for (const { method, path, target, integration } of operations) {
      expect(integration, `${method} ${path}`).toMatchObject({ type: 'aws_proxy', httpMethod: 'POST', credentials: { 'Fn::GetAtt': ['ApiGatewayInvokeRole', 'Arn'] } });
      expect(prod.Resources[target]?.Type, `${method} ${path}`).toBe('AWS::Lambda::Function');
      expect(invocable.has(JSON.stringify({ 'Fn::GetAtt': [target, 'Arn'] })), `${method} ${path}`).toBe(true);
    }
    // only functions behind a REST route: schedules and the WebSocket API keep their own permissions
    expect(invocable.size).toBe(new Set(operations.map((o) => o.target)).size);
  });
  it('lets functions read only their own secrets from SSM, and ships no secret value', () => {
    // each function's role holds only the statements resources/permissions.yml names (tests/e2e/operations.test.ts)
    const ssm = statements(prod).filter((s) => s.Action.some((a) => a.startsWith('ssm:')));
    const bySid = new Map(ssm.map((s) => [s.Sid, s]));
    expect([...bySid.keys()].sort()).toEqual(['CursorSecretRead', 'ProviderSecretsRead', 'ProviderTokenRead', 'SecretsRead', 'SigningKeyRead', 'WebhookSecretRead']);
    const resources = (sid: string) => bySid.get(sid)!.Resource.map((r) => JSON.stringify(r));
    expect(bySid.get('SecretsRead')!.Action).toEqual(['ssm:GetParameter']);
    expect(resources('SecretsRead')).toHaveLength(2);
    expect(resources('SecretsRead')[0]).toContain(':parameter/device-monitoring/prod/admin-password');
    expect(resources('SecretsRead')[1]).toContain(':parameter/device-monitoring/prod/jwt-private-key');
    // the service token exchange signs like sign-in, and may read the signing key only
    expect(bySid.get('SigningKeyRead')!.Action).toEqual(['ssm:GetParameter']);
    expect(resources('SigningKeyRead')).toEqual([expect.stringContaining(':parameter/device-monitoring/prod/jwt-private-key')]);
    expect(bySid.get('ProviderTokenRead')!.Action).toEqual(['ssm:GetParameter']);
    expect(resources('ProviderTokenRead')).toEqual([expect.stringContaining(':parameter/device-monitoring/prod/device-provider-token')]);
    expect(bySid.get('ProviderSecretsRead')!.Action).toEqual(['ssm:GetParameter']);
    expect(resources('ProviderSecretsRead')).toEqual([expect.stringContaining(':parameter/device-monitoring/prod/providers/*')]);
    // the event receivers (Zoom's, PagerDuty's) read the webhook secrets alone, none of the vendors' API credentials
    expect(bySid.get('WebhookSecretRead')!.Action).toEqual(['ssm:GetParameter']);
    expect(resources('WebhookSecretRead')).toEqual([
      expect.stringContaining(':parameter/device-monitoring/prod/providers/zoom-webhook-secret-token'),
      expect.stringContaining(':parameter/device-monitoring/prod/providers/pagerduty-webhook-secret'),
    ]);
    expect(bySid.get('CursorSecretRead')!.Action).toEqual(['ssm:GetParameter', 'secretsmanager:GetSecretValue']);
    expect(resources('CursorSecretRead')).toEqual([
      expect.stringContaining(':parameter/aws/reference/secretsmanager/device-monitoring/prod/cursor-secret'),
      '{"Ref":"CursorSecret"}',
    ]);
    for (const [, fn] of resourcesOfType(prod, 'AWS::Lambda::Function')) {
      const names = Object.keys(environment(fn));
      for (const secret of ['JWT_PRIVATE_KEY', 'ADMIN_PASSWORD', 'JWT_SECRET', 'JWT_SECRET_PARAM', 'CURSOR_SECRET', 'DEVICE_PROVIDER_TOKEN']) expect(names).not.toContain(secret);
      for (const secret of ['WEBEX_ACCESS_TOKEN', 'WEBEX_CLIENT_SECRET', 'WEBEX_REFRESH_TOKEN', 'ZOOM_CLIENT_SECRET', 'ZOOM_WEBHOOK_SECRET_TOKEN']) expect(names).not.toContain(secret);
    }
    expect(JSON.stringify(prod)).not.toContain('local-admin-password');
    expect(JSON.stringify(prod)).not.toContain('PRIVATE KEY');
    expect(JSON.stringify(prod)).not.toContain('resolve:secretsmanager');
  });

  it('names the account secrets to the sign-in function only, the provider secrets to sync, refresh and status poll only', () => {
    const functions = resourcesOfType(prod, 'AWS::Lambda::Function');
    const naming = (suffix: string) =>
      functions.filter(([, fn]) => Object.keys(environment(fn)).some((name) => name.endsWith(suffix))).map(([name]) => name).sort();
    expect(naming('ADMIN_PASSWORD_PARAM')).toEqual(['SessionsSigninLambdaFunction']);
    expect(naming('JWT_PRIVATE_KEY_PARAM')).toEqual(['ServicesTokenLambdaFunction', 'SessionsSigninLambdaFunction']);
    expect(naming('DEVICE_PROVIDER_TOKEN_PARAM')).toEqual(['DevicesRefreshLambdaFunction', 'DevicesStatusPollLambdaFunction', 'DevicesSyncLambdaFunction']);
    expect(naming('ZOOM_CLIENT_SECRET_PARAM')).toEqual(['DevicesRefreshLambdaFunction', 'DevicesStatusPollLambdaFunction', 'DevicesSyncLambdaFunction']);
    expect(naming('ZOOM_WEBHOOK_SECRET_TOKEN_PARAM')).toEqual(['VendorsZoomEventsLambdaFunction']);
    const [, signin] = functions.find(([name]) => name === 'SessionsSigninLambdaFunction')!;
    expect(environment(signin)).toMatchObject({
      ADMIN_PASSWORD_PARAM: '/device-monitoring/prod/admin-password',
      JWT_PRIVATE_KEY_PARAM: '/device-monitoring/prod/jwt-private-key',
    });
    const [, sync] = functions.find(([name]) => name === 'DevicesSyncLambdaFunction')!;
    expect(environment(sync)).toMatchObject({
      DEVICE_PROVIDER_TOKEN_PARAM: '/device-monitoring/prod/device-provider-token',
      WEBEX_CLIENT_SECRET_PARAM: '/device-monitoring/prod/providers/webex-client-secret',
      ZOOM_CLIENT_SECRET_PARAM: '/device-monitoring/prod/providers/zoom-client-secret',
      DEVICE_PROVIDERS: '',
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
    (role.Properties?.Policies as { PolicyDocument: { Statement: { Sid?: string; Action: string[]; Resource: unknown[] }[] } }[]).flatMap((p) => p.PolicyDocument.Statement),
  );

const props = (r: CfnResource | undefined) => (r?.Properties ?? {}) as Record<string, unknown>;

const environment = (fn: CfnResource): Record<string, unknown> =>
  (fn.Properties?.Environment as { Variables: Record<string, unknown> } | undefined)?.Variables ?? {};

describe('serverless package --stage prod: cursor key', () => {
  it('generates the cursor key in Secrets Manager and names it to the functions, never its value', () => {
    const secrets = resourcesOfType(prod, 'AWS::SecretsManager::Secret');
    expect(secrets.map(([name]) => name)).toContain('CursorSecret');
    expect(props(prod.Resources.CursorSecret).Name).toBe('device-monitoring/prod/cursor-secret');
    for (const [, fn] of resourcesOfType(prod, 'AWS::Lambda::Function')) {
      expect(environment(fn).CURSOR_SECRET).toBeUndefined();
      expect(environment(fn).CURSOR_SECRET_PARAM).toBe('/aws/reference/secretsmanager/device-monitoring/prod/cursor-secret');
    }
  });
});

describe('serverless package --stage prod: CORS', () => {
  it('answers OPTIONS on every API path with a method, without API key, through the corsPreflight function', () => {
    const operations = apiOperations(prod);
    const withMethods = new Set(operations.filter((o) => o.method !== 'OPTIONS').map((o) => o.path));
    const options = operations.filter((o) => o.method === 'OPTIONS');
    expect(new Set(options.map((o) => o.path))).toEqual(withMethods);
    for (const option of options) {
      expect(option.keyRequired).toBe(false);
      expect(option.integration.type).toBe('aws_proxy');
      expect(option.target).toBe('CorsPreflightLambdaFunction');
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
