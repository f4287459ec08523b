import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';

/**
 * plugins/openapi-rest-api.js on a template as the framework compiles it: two routes on nested
 * paths and their preflight. What it declares in the RestApi's body and what it removes.
 */
const load = createRequire(__filename);
type Template = { Resources: Record<string, { Type: string; Properties?: Record<string, unknown>; DependsOn?: unknown }> };
const OpenApiRestApi = load('../../plugins/openapi-rest-api.js') as new (serverless: unknown) => { rewrite(t: Template): void };

const uri = (fn: string) => ({ 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':apigateway:', { Ref: 'AWS::Region' }, ':lambda:path/2015-03-31/functions/', { 'Fn::GetAtt': [fn, 'Arn'] }, '/invocations']] });
const method = (resource: string, verb: string, fn: string, key: boolean) => ({
  Type: 'AWS::ApiGateway::Method',
  Properties: {
    HttpMethod: verb,
    RequestParameters: {},
    ResourceId: { Ref: resource },
    RestApiId: { Ref: 'ApiGatewayRestApi' },
    ApiKeyRequired: key,
    AuthorizationType: 'NONE',
    Integration: { IntegrationHttpMethod: 'POST', Type: 'AWS_PROXY', Uri: uri(fn), Credentials: { 'Fn::GetAtt': ['ApiGatewayInvokeRole', 'Arn'] } },
    MethodResponses: [],
  },
  DependsOn: [],
});
const compiled = (extraRoute = false): Template => ({
  Resources: {
    ApiGatewayRestApi: { Type: 'AWS::ApiGateway::RestApi', Properties: { Name: 'prod-svc', EndpointConfiguration: { Types: ['EDGE'] }, Policy: '' } },
    ApiGatewayResourceAlarms: { Type: 'AWS::ApiGateway::Resource', Properties: { ParentId: { 'Fn::GetAtt': ['ApiGatewayRestApi', 'RootResourceId'] }, PathPart: 'alarms', RestApiId: { Ref: 'ApiGatewayRestApi' } } },
    ApiGatewayResourceAlarmsIdVar: { Type: 'AWS::ApiGateway::Resource', Properties: { ParentId: { Ref: 'ApiGatewayResourceAlarms' }, PathPart: '{id}', RestApiId: { Ref: 'ApiGatewayRestApi' } } },
    ApiGatewayMethodAlarmsGet: method('ApiGatewayResourceAlarms', 'GET', 'AlarmsListLambdaFunction', true),
    ApiGatewayMethodAlarmsOptions: method('ApiGatewayResourceAlarms', 'OPTIONS', 'CorsPreflightLambdaFunction', false),
    ApiGatewayMethodAlarmsIdVarDelete: method('ApiGatewayResourceAlarmsIdVar', 'DELETE', 'AlarmsDeleteLambdaFunction', true),
    ...(extraRoute ? { ApiGatewayMethodAlarmsIdVarGet: method('ApiGatewayResourceAlarmsIdVar', 'GET', 'AlarmsGetLambdaFunction', true) } : {}),
    ApiGatewayMethodAlarmsIdVarOptions: method('ApiGatewayResourceAlarmsIdVar', 'OPTIONS', 'CorsPreflightLambdaFunction', false),
    ApiGatewayDeployment1700000000000: { Type: 'AWS::ApiGateway::Deployment', Properties: { RestApiId: { Ref: 'ApiGatewayRestApi' }, StageName: 'prod' }, DependsOn: ['ApiGatewayMethodAlarmsGet'] },
    ApiGatewayUsagePlan: { Type: 'AWS::ApiGateway::UsagePlan', DependsOn: 'ApiGatewayDeployment1700000000000', Properties: {} },
    ApiGatewayInvokeRole: { Type: 'AWS::IAM::Role', Properties: {} },
  },
});
const rewritten = (template: Template) => {
  new OpenApiRestApi({ classes: { Error } }).rewrite(template);
  return template;
};
const deploymentOf = (t: Template) => Object.keys(t.Resources).find((id) => id.startsWith('ApiGatewayDeployment'));

describe('plugins/openapi-rest-api.js', () => {
  it('declares each compiled method in the RestApi body, with its key requirement and proxy integration, and removes the methods and path resources', () => {
    const t = rewritten(compiled());
    expect(Object.keys(t.Resources).sort()).toEqual(['ApiGatewayInvokeRole', 'ApiGatewayRestApi', 'ApiGatewayUsagePlan', deploymentOf(t)].sort());
    const body = t.Resources.ApiGatewayRestApi!.Properties!.Body as { paths: Record<string, Record<string, { security?: unknown; 'x-amazon-apigateway-integration': unknown }>> };
    expect(Object.keys(body.paths)).toEqual(['/alarms', '/alarms/{id}']);
    expect(body.paths['/alarms/{id}']!.parameters).toEqual([{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }]);
    expect(body.paths['/alarms']!.get!.security).toEqual([{ api_key: [] }]);
    expect(body.paths['/alarms']!.options!.security).toBeUndefined();
    expect(body.paths['/alarms/{id}']!.delete!['x-amazon-apigateway-integration']).toEqual({
      type: 'aws_proxy',
      httpMethod: 'POST',
      uri: { 'Fn::Sub': 'arn:${AWS::Partition}:apigateway:${AWS::Region}:lambda:path/2015-03-31/functions/${AlarmsDeleteLambdaFunction.Arn}/invocations' },
      credentials: { 'Fn::GetAtt': ['ApiGatewayInvokeRole', 'Arn'] },
      passthroughBehavior: 'when_no_match',
    });
    expect(t.Resources.ApiGatewayRestApi!.Properties).toMatchObject({ Name: 'prod-svc', Mode: 'overwrite', FailOnWarnings: true, EndpointConfiguration: { Types: ['EDGE'] } });
    expect(t.Resources.ApiGatewayRestApi!.Properties!.Policy).toBeUndefined();
    // what waited for the old deployment waits for the new one
    expect(t.Resources.ApiGatewayUsagePlan!.DependsOn).toBe(deploymentOf(t));
  });

  it('names the deployment after the definition: the same routes, the same deployment; another route, a new one', () => {
    const first = deploymentOf(rewritten(compiled()));
    expect(first).toMatch(/^ApiGatewayDeployment[0-9a-f]{12}$/);
    expect(deploymentOf(rewritten(compiled()))).toBe(first);
    expect(deploymentOf(rewritten(compiled(true)))).not.toBe(first);
  });

  it('refuses a method it cannot declare rather than dropping it', () => {
    const t = compiled();
    (t.Resources.ApiGatewayMethodAlarmsGet!.Properties!.Integration as { Type: string }).Type = 'HTTP_PROXY';
    expect(() => rewritten(t)).toThrow(/ApiGatewayMethodAlarmsGet is not a Lambda proxy integration/);
  });
});

describe('resources/synthetic-routes.js', () => {
  const synthetic = load('../../resources/synthetic-routes.js') as () => Promise<Record<string, { handler: string; events: { http: { method: string; path: string; private: boolean } }[] }>>;
  const withEnv = async (value: string | undefined, argv: string[], run: () => Promise<unknown>) => {
    const [savedEnv, savedArgv] = [process.env.SYNTHETIC_ROUTES, process.argv];
    if (value === undefined) delete process.env.SYNTHETIC_ROUTES;
    else process.env.SYNTHETIC_ROUTES = value;
    process.argv = argv;
    try {
      return await run();
    } finally {
      if (savedEnv === undefined) delete process.env.SYNTHETIC_ROUTES;
      else process.env.SYNTHETIC_ROUTES = savedEnv;
      process.argv = savedArgv;
    }
  };

  it('declares no function unless SYNTHETIC_ROUTES asks for some', async () => {
    expect(await withEnv(undefined, ['node', 'serverless', 'deploy'], synthetic)).toEqual({});
    expect(await withEnv('0', ['node', 'serverless', 'offline'], synthetic)).toEqual({});
  });

  it('declares that many key-protected routes on paths of their own, for `serverless package` only', async () => {
    const functions = (await withEnv('3', ['node', 'serverless', 'package'], synthetic)) as Awaited<ReturnType<typeof synthetic>>;
    expect(Object.keys(functions)).toEqual(['syntheticRoute1', 'syntheticRoute2', 'syntheticRoute3']);
    expect(new Set(Object.values(functions).map((fn) => fn.events[0]!.http.path)).size).toBe(3);
    for (const fn of Object.values(functions)) expect(fn.events[0]!.http).toMatchObject({ method: 'get', private: true });
    await expect(withEnv('3', ['node', 'serverless', 'deploy'], synthetic)).rejects.toThrow(/unset it to deploy/);
    await expect(withEnv('many', ['node', 'serverless', 'package'], synthetic)).rejects.toThrow(/whole number/);
  });
});
