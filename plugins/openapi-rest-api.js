'use strict';

/**
 * The REST API as one OpenAPI definition instead of a resource per path and method (package and
 * deploy; offline untouched: it serves the functions' `http` events, which stay as they are).
 *
 * CloudFormation takes at most 500 resources per stack, and the framework compiles every REST
 * route into its function, an `AWS::ApiGateway::Method`, an OPTIONS method beside it
 * (plugins/cors-preflight.js) and an `AWS::ApiGateway::Resource` per new path segment: about four
 * resources a route. Before the template is written, this reads those compiled methods (the
 * framework made them from generated/functions.yml, which the route contracts generate) and
 * declares the same paths, methods, API-key requirements and Lambda proxy integrations (with the
 * invoke role's credentials, plugins/api-invoke-role.js) in the `Body` of the
 * `AWS::ApiGateway::RestApi`, then removes the methods and path resources. A route then costs its
 * function alone. The deployment's logical id carries a hash of the body, so CloudFormation
 * deploys the stage again whenever the definition changes, and only then. docs/adr/0560.
 */
const { createHash } = require('node:crypto');
const TemplatePlugin = require('./template-plugin');

const REST_API = 'ApiGatewayRestApi';
const INVOKE_ROLE = 'ApiGatewayInvokeRole';
/** The header API Gateway reads the key from (provider.apiGateway.apiKeySourceType: HEADER). */
const API_KEY_SCHEME = { type: 'apiKey', name: 'x-api-key', in: 'header' };

/** A Lambda proxy integration's function, from the compiled `Uri` (a Join around its Arn). */
const functionOf = (uri) => JSON.stringify(uri).match(/"Fn::GetAtt":\["([A-Za-z0-9]+)","Arn"\]/)?.[1];

class OpenApiRestApi extends TemplatePlugin {
  rewrite(template) {
    const resources = template.Resources;
    const api = resources[REST_API];
    if (!api) return;
    const of = (type) => Object.entries(resources).filter(([, r]) => r.Type === type);
    const pathResources = new Map(of('AWS::ApiGateway::Resource'));
    const methods = of('AWS::ApiGateway::Method');
    if (methods.length === 0) return;

    // the full path of a compiled path resource, from its chain of parents up to the root
    const pathOf = (ref) => {
      if (JSON.stringify(ref) === JSON.stringify({ 'Fn::GetAtt': [REST_API, 'RootResourceId'] })) return '';
      const id = ref?.Ref;
      const resource = pathResources.get(id);
      if (!resource) this.fail(`openapi-rest-api: a method on an unknown path resource ${JSON.stringify(ref)}`);
      return `${pathOf(resource.Properties.ParentId)}/${resource.Properties.PathPart}`;
    };

    const paths = {};
    for (const [name, method] of methods) {
      const p = method.Properties;
      const integration = p.Integration ?? {};
      const target = functionOf(integration.Uri);
      if (integration.Type !== 'AWS_PROXY' || !target) this.fail(`openapi-rest-api: ${name} is not a Lambda proxy integration`);
      if (p.AuthorizationType && p.AuthorizationType !== 'NONE') this.fail(`openapi-rest-api: ${name} has an authorizer, which this plugin does not declare`);
      if (Object.keys(p.RequestParameters ?? {}).length) this.fail(`openapi-rest-api: ${name} declares request parameters, which this plugin does not declare`);
      const path = pathOf(p.ResourceId) || '/';
      const item = (paths[path] ??= {});
      const parameters = [...path.matchAll(/\{([^}+]+)\+?\}/g)].map(([, param]) => ({ name: param, in: 'path', required: true, schema: { type: 'string' } }));
      if (parameters.length) item.parameters = parameters;
      item[p.HttpMethod.toLowerCase()] = {
        operationId: name.replace(/^ApiGatewayMethod/, ''),
        ...(p.ApiKeyRequired === true ? { security: [{ api_key: [] }] } : {}),
        // the function answers status, headers and body (Lambda proxy); one declared response
        // keeps the document valid OpenAPI and gives the method the framework's default, 200
        responses: { 200: { description: 'The function\'s answer (Lambda proxy integration)' } },
        'x-amazon-apigateway-integration': {
          type: 'aws_proxy',
          httpMethod: 'POST',
          uri: { 'Fn::Sub': `arn:\${AWS::Partition}:apigateway:\${AWS::Region}:lambda:path/2015-03-31/functions/\${${target}.Arn}/invocations` },
          ...(integration.Credentials ? { credentials: integration.Credentials } : {}),
          passthroughBehavior: 'when_no_match',
        },
      };
    }
    const sorted = Object.fromEntries(Object.keys(paths).sort().map((path) => [path, paths[path]]));
    const body = {
      openapi: '3.0.1',
      info: { title: api.Properties.Name, version: '1' },
      'x-amazon-apigateway-api-key-source': 'HEADER',
      paths: sorted,
      components: { securitySchemes: { api_key: API_KEY_SCHEME } },
    };
    api.Properties.Body = body;
    // the definition is the whole API: a route dropped from the contracts leaves API Gateway too
    api.Properties.Mode = 'overwrite';
    // API Gateway skips what it cannot import with a warning unless told to fail: a route left
    // out must fail the deploy (which CloudFormation rolls back), not go missing
    api.Properties.FailOnWarnings = true;
    if (api.Properties.Policy === '') delete api.Properties.Policy;

    const removed = new Set([...pathResources.keys(), ...methods.map(([name]) => name)]);
    for (const name of removed) delete resources[name];

    // the deployment: renamed after the body, so a changed definition is deployed and an
    // unchanged one is not deployed again
    const deployments = of('AWS::ApiGateway::Deployment');
    if (deployments.length !== 1) this.fail(`openapi-rest-api: expected one REST deployment, found ${deployments.length}`);
    const [[oldId, deployment]] = deployments;
    const hash = createHash('sha256').update(JSON.stringify(body)).update(JSON.stringify(deployment.Properties)).digest('hex').slice(0, 12);
    const newId = `ApiGatewayDeployment${hash}`;
    delete deployment.DependsOn;
    delete resources[oldId];
    resources[newId] = deployment;
    const renamed = JSON.parse(JSON.stringify(template).replaceAll(`"${oldId}"`, `"${newId}"`));
    Object.assign(template, renamed);

    const text = JSON.stringify(template);
    for (const name of removed) if (text.includes(`"${name}"`)) this.fail(`openapi-rest-api: something still refers to ${name}`);
    if (!resources[INVOKE_ROLE] && text.includes(`"${INVOKE_ROLE}"`)) this.fail(`openapi-rest-api: ${INVOKE_ROLE} is missing`);
  }
}

OpenApiRestApi.functionOf = functionOf;
module.exports = OpenApiRestApi;
