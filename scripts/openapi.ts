/**
 * `npm run openapi`: docs/openapi.json (OpenAPI 3.1) from the routes in functions/*\/routes.yml,
 * the request schemas and the route docs in schemas/. tests/unit/openapi.test.ts fails when a
 * route is undocumented or the committed file is stale.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { errorBody, type AnswerDoc, type Schema } from '../schemas/common';
import { clientTypesFile, renderClientTypes } from './client-types';
import { tidyOpenApi } from './openapi-tidy';
import { eventSchemas, root, routeDocs, routes, validatorName } from './registry';

export const openApiFile = join(root, 'docs', 'openapi.json');

const content = (schema?: Schema) => (schema ? { content: { 'application/json': { schema } } } : {});
const answer = ({ description, schema }: AnswerDoc) => ({ description, ...content(schema) });

const always: Record<number, AnswerDoc> = {
  403: { description: 'Missing or wrong x-api-key (API Gateway)', schema: { $ref: '#/components/schemas/Forbidden' } },
  500: { description: 'Unexpected server fault', schema: { $ref: '#/components/schemas/Error' } },
};
const withBody: Record<number, AnswerDoc> = {
  413: { description: 'Body larger than 256 KiB', schema: { $ref: '#/components/schemas/Error' } },
  415: { description: 'Content-Type is not application/json', schema: { $ref: '#/components/schemas/Error' } },
};

export const buildOpenApi = async () => {
  const schemas = Object.fromEntries((await eventSchemas()).map(({ name, schema }) => [name, schema]));
  const docs = await routeDocs();
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes()) {
    const doc = docs[route.functionName];
    if (!doc) throw new Error(`no docs entry for ${route.functionName} (${route.method} /${route.path})`);
    const name = validatorName(route);
    const eventSchema = name ? schemas[name] : undefined;
    const properties = (eventSchema?.properties ?? {}) as Record<string, Schema>;
    const bodyRequired = ((eventSchema?.required ?? []) as string[]).includes('body');
    const param = (where: 'path' | 'query', group?: Schema) => {
      const object = (where === 'query' ? ((group?.anyOf as Schema[] | undefined)?.[1] ?? group) : group) as Schema | undefined;
      const required = (object?.required ?? []) as string[];
      return Object.entries((object?.properties ?? {}) as Record<string, Schema>).map(([key, schema]) => ({
        name: key,
        in: where,
        required: where === 'path' || required.includes(key),
        schema,
      }));
    };
    const pathParams = route.path.match(/\{([^}]+)\}/g)?.map((p) => p.slice(1, -1)) ?? [];
    const declared = param('path', properties.pathParameters);
    const parameters = [
      ...pathParams.map((key) => declared.find((p) => p.name === key) ?? { name: key, in: 'path', required: true, schema: { type: 'string' } }),
      ...param('query', properties.queryStringParameters),
    ];
    const answers = { ...doc.answers, ...always, ...(properties.body ? withBody : {}) };
    // a route's own 403 (signed in without the right role) is answered beside API Gateway's
    const own403 = doc.answers[403];
    if (own403) answers[403] = { description: `${always[403]!.description}; or ${own403.description}`, schema: { oneOf: [always[403]!.schema!, own403.schema!] } };
    (paths[`/${route.path}`] ??= {})[route.method.toLowerCase()] = {
      operationId: route.functionName,
      summary: doc.summary,
      tags: [route.handlerFile.split('/')[1]],
      ...(parameters.length ? { parameters } : {}),
      ...(properties.body ? { requestBody: { required: bodyRequired, ...content(properties.body) } } : {}),
      responses: Object.fromEntries(Object.entries(answers).map(([status, a]) => [status, answer(a)])),
      security: doc.bearer ? [{ apiKey: [], bearer: [] }] : [{ apiKey: [] }],
    };
  }
  return tidyOpenApi({
    openapi: '3.1.0',
    info: {
      title: 'Device-monitoring API',
      version: '1.0.0',
      description:
        'Devices, filters, watchers, intervals and account administration for the device-monitoring dashboard. ' +
        'Every request needs the x-api-key header. Errors are JSON {"message", "errors"?}.',
    },
    servers: [
      { url: 'http://localhost:3000/dev', description: 'npm start' },
      {
        url: 'https://{restApiId}.execute-api.{region}.amazonaws.com/{stage}',
        variables: { restApiId: { default: 'restApiId' }, region: { default: 'eu-west-1' }, stage: { default: 'dev' } },
      },
    ],
    security: [{ apiKey: [] }],
    paths: Object.fromEntries(Object.entries(paths).sort(([a], [b]) => a.localeCompare(b))),
    components: {
      securitySchemes: {
        apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key' },
        bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
      },
      schemas: {
        Error: errorBody,
        Forbidden: { type: 'object', required: ['message'], properties: { message: { const: 'Forbidden' } } },
      },
    },
  }, areaDescription);
};

/** An area's description: the leading comment of its functions/<area>/routes.yml. */
const areaDescription = (area: string): string =>
  readFileSync(join(root, 'functions', area, 'routes.yml'), 'utf8')
    .split('\n')
    .filter((line, i, lines) => line.startsWith('#') && lines.slice(0, i).every((l) => l.startsWith('#')))
    .map((line) => line.replace(/^#\s?/, ''))
    .join(' ');

export const renderOpenApi = async () => `${JSON.stringify(await buildOpenApi(), null, 2)}\n`;

if (require.main === module) {
  renderOpenApi()
    .then(async (text) => {
      writeFileSync(openApiFile, text);
      console.log(`wrote ${openApiFile}`);
      writeFileSync(clientTypesFile, await renderClientTypes(JSON.parse(text) as object));
      console.log(`wrote ${clientTypesFile}`);
    })
    .catch((error: unknown) => {
      console.error(error);
      process.exit(1);
    });
}
