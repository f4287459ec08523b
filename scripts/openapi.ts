/**
 * docs/openapi.json (OpenAPI 3.1) from the route contracts (schemas/<area>.ts); written by
 * `npm run generate`. tests/unit/generated.test.ts fails when the committed file is stale.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Answer, Requirement, RouteContract } from '#lib/http/contract';
import { UNSCOPED_ONLY, type Permission } from '#lib/shared/access';
import { errorBody, forbiddenBody, Type } from '../schemas/shared';
import { eventSchema, root, routes, type Schema } from './registry';
import ts from 'typescript';
import { tidyOpenApi } from './openapi-tidy';
import { IDEMPOTENCY_KEY_PATTERN } from '#lib/http/idempotency';

export const openApiFile = join(root, 'docs', 'openapi.json');

const content = (schema?: unknown, media: Record<string, unknown> = {}) =>
  schema ? { content: { 'application/json': { schema }, ...Object.fromEntries(Object.entries(media).map(([type, body]) => [type, { schema: body }])) } } : {};
const answer = ({ description, schema, media, headers }: Documented) => ({ description, ...(headers && Object.keys(headers).length ? { headers } : {}), ...content(schema, media) });

const unauthenticated: Answer = { description: 'Missing, invalid, expired or revoked bearer token', schema: errorBody };
/** The 403 bodies of the permission check (lib/access/authenticate.ts requirePermission). */
export const forbiddenMessages = (permission: Permission): string[] => [
  permission === 'admin' ? 'This operation needs the admin role' : `This operation needs the ${permission} permission`,
  ...(UNSCOPED_ONLY.includes(permission) ? [`This operation needs the ${permission} permission over the whole fleet; the caller is scoped`] : []),
];

/** Answers every route needing `requirement` has, from the bearer and permission checks. */
const byRequirement = (requirement: Requirement): Record<number, Answer> => {
  if (requirement === 'public') return {};
  if (requirement === 'signed-in') return { 401: unauthenticated };
  const messages = forbiddenMessages(requirement);
  const scoped = messages.length > 1 ? ', or it is scoped (this one acts on the whole fleet)' : '';
  return {
    401: { description: `${unauthenticated.description}; in ACCESS_MODE=user also no bearer token at all`, schema: errorBody },
    403: {
      description: `The caller does not hold the ${requirement} permission${scoped}: {"message":"${messages[0]}"}`,
      schema: Type.Object({ message: Type.Unsafe<string>({ enum: messages }) }),
    },
  };
};

interface Documented {
  description: string;
  schema?: unknown;
  /** Other media types of the same answer (Answer.media). */
  media?: Record<string, unknown>;
  /** OpenAPI header objects (or references to components.headers) by header name. */
  headers?: Record<string, unknown>;
}
const ref = (name: keyof typeof components) => ({ $ref: `#/components/schemas/${name}` });
export const components = { Error: errorBody, Forbidden: forbiddenBody };

/**
 * Headers the middleware sets on every answer of a status, whichever route gives it: a 401 says how
 * to authenticate (lib/shared/errors.ts Unauthorized), a 429 and a 503 when to try again (TooManyRequests,
 * ServiceUnavailable, the store's back-pressure in lib/http/respond.ts).
 */
export const headerComponents = {
  RetryAfter: {
    description: 'Seconds to wait before sending the request again',
    required: true,
    schema: { type: 'integer', minimum: 1 },
  },
  WwwAuthenticate: {
    description: 'The credential this API takes: a bearer token (Authorization: Bearer <accessToken>)',
    required: true,
    schema: { type: 'string', const: 'Bearer' },
  },
};
const headerRef = (name: keyof typeof headerComponents) => ({ $ref: `#/components/headers/${name}` });
const statusHeaders: Record<number, Record<string, unknown>> = {
  401: { 'WWW-Authenticate': headerRef('WwwAuthenticate') },
  429: { 'Retry-After': headerRef('RetryAfter') },
  503: { 'Retry-After': headerRef('RetryAfter') },
};

/** What an idempotent create adds to its answers' headers (lib/http/idempotency.ts). */
const idempotentHeaders = (status: number): Record<string, unknown> => {
  if (status >= 200 && status < 300) {
    return {
      'idempotent-replayed': {
        description: 'true when this is the first result of an earlier request with the same Idempotency-Key, answered again (nothing was created this time); absent otherwise',
        schema: { type: 'string', const: 'true' },
      },
    };
  }
  if (status === 409) {
    return {
      'Retry-After': {
        description: 'With a request of the same Idempotency-Key still being processed: seconds to wait before retrying; absent on the route\'s other 409s',
        schema: { type: 'integer', minimum: 1 },
      },
    };
  }
  return {};
};

/** A contract's own answer headers (Answer.headers) as OpenAPI header objects. */
const ownHeaders = (headers: Answer['headers']): Record<string, unknown> =>
  Object.fromEntries(
    Object.entries(headers ?? {}).map(([name, { description, schema, required }]) => [name, { description, ...(required ? { required } : {}), schema }]),
  );

/** Every header documented for an answer of `status`: the contract's own, the status's, an idempotent create's. */
const headersOf = (contract: Documentable, status: number, own: Answer['headers']): Record<string, unknown> => ({
  ...ownHeaders(own),
  ...statusHeaders[status],
  ...(contract.idempotent ? idempotentHeaders(status) : {}),
});

/** Answers any route may give (a route may say more about them): a server fault, the store's back-pressure. */
const faults: Record<number, Documented> = {
  500: { description: 'Unexpected server fault', schema: ref('Error') },
  503: { description: 'The store is busy or unavailable; retry after Retry-After seconds', schema: ref('Error') },
  413: { description: "The answer would be larger than a Lambda may return (6 MiB): ask for pages (?limit, ?cursor) or a narrower scope", schema: ref('Error') },
};
/** API Gateway's answer without the right key, on every route. */
const apiKey: Record<number, Documented> = {
  403: { description: 'Missing or wrong x-api-key (API Gateway)', schema: ref('Forbidden') },
};
const withBody: Record<number, Documented> = {
  413: { description: 'Body larger than 256 KiB, or an answer larger than 6 MiB', schema: ref('Error') },
  415: { description: 'Content-Type is not application/json', schema: ref('Error') },
};

/** What an idempotent create answers besides its own (lib/http/idempotency.ts). */
const idempotentAnswers: Record<number, Documented> = {
  409: { description: 'A request with this Idempotency-Key is still being processed; retry shortly', schema: ref('Error') },
  422: { description: 'This Idempotency-Key was used for a different request', schema: ref('Error') },
};

/** The `Idempotency-Key` header an idempotent create takes. */
export const idempotencyParameter = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description:
    'Makes the create safe to retry: a retry with the same key and the same request answers the first result (header idempotent-replayed: true) for 24 hours',
  schema: { type: 'string', pattern: IDEMPOTENCY_KEY_PATTERN, description: '1 to 255 visible ASCII characters, e.g. a UUID' },
};

type Documentable = Pick<RouteContract, 'permission' | 'responses' | 'request' | 'idempotent' | 'apiKey'>;
const layers = (contract: Documentable): Record<number, Documented>[] => [
  faults,
  contract.responses,
  byRequirement(contract.permission),
  contract.apiKey === false ? {} : apiKey,
  contract.request?.body ? withBody : {},
];

/** The idempotency answers beside a route's own of the same status (a 422 of invalid input, a 409 of a lost race). */
const withIdempotency = (contract: Documentable, answers: Record<number, Documented>): Record<number, Documented> => {
  if (!contract.idempotent) return answers;
  const merged = { ...answers };
  for (const [status, extra] of Object.entries(idempotentAnswers)) {
    const own = merged[Number(status)];
    merged[Number(status)] = own ? { ...own, description: `${own.description}; or ${extra.description}` } : extra;
  }
  return merged;
};

/**
 * The answer OpenAPI shows for each status: the route's own, overridden by the common ones; a
 * route's own 403 (signed in without the right role) is shown beside API Gateway's.
 */
export const answersOf = (contract: Documentable): Record<number, Documented> => {
  const answers: Record<number, Documented> = withIdempotency(contract, Object.assign({}, ...layers(contract)));
  const own403 = byRequirement(contract.permission)[403] ?? contract.responses[403];
  if (own403 && contract.apiKey !== false) {
    answers[403] = {
      description: `${apiKey[403]!.description}; or ${own403.description}`,
      schema: { oneOf: [apiKey[403]!.schema, own403.schema] },
    };
  }
  for (const [status, documented] of Object.entries(answers)) {
    const headers = headersOf(contract, Number(status), contract.responses[Number(status)]?.headers);
    // a copy: the common layers' answers are shared by every route
    if (Object.keys(headers).length) answers[Number(status)] = { ...documented, headers };
  }
  return answers;
};

/**
 * Every body a route may answer with each status (one status can have several: a 403 from API
 * Gateway or from the role check), with component references resolved: what e2e checks accept.
 */
export const possibleAnswers = (contract: Documentable): Record<number, Documented[]> => {
  const resolve = (schema: unknown) => {
    const name = (schema as { $ref?: string } | undefined)?.$ref?.split('/').pop() as keyof typeof components | undefined;
    return name ? components[name] : schema;
  };
  const all: Record<number, Documented[]> = {};
  for (const layer of [...layers(contract), contract.idempotent ? idempotentAnswers : {}]) {
    for (const [status, doc] of Object.entries(layer)) {
      (all[Number(status)] ??= []).push({ ...doc, schema: resolve(doc.schema) });
      for (const schema of Object.values(doc.media ?? {})) all[Number(status)]!.push({ description: doc.description, schema });
    }
  }
  return all;
};

export const buildOpenApi = async () => {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of await routes()) {
    const { contract } = route;
    const event = eventSchema(contract);
    const properties = (event?.properties ?? {}) as Record<string, Schema>;
    const bodyRequired = ((event?.required ?? []) as string[]).includes('body');
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
      ...(contract.idempotent ? [idempotencyParameter] : []),
    ];
    const answers = answersOf(contract);
    (paths[`/${route.path}`] ??= {})[route.method.toLowerCase()] = {
      operationId: route.functionName,
      summary: contract.summary,
      tags: [route.area],
      ...(parameters.length ? { parameters } : {}),
      ...(properties.body ? { requestBody: { required: bodyRequired, ...content(properties.body) } } : {}),
      responses: Object.fromEntries(Object.entries(answers).map(([status, a]) => [status, answer(a)])),
      'x-permission': contract.permission,
      // ACCESS_MODE=key: the API key alone acts for permission routes; ACCESS_MODE=user: a bearer token too
      // a vendor's webhook: no key, its signature is checked by the handler
      security:
        contract.apiKey === false
          ? []
          : contract.permission === 'public'
          ? [{ apiKey: [] }]
          : contract.permission === 'signed-in' || contract.permission === 'admin'
            ? [{ apiKey: [], bearer: [] }]
            : [{ apiKey: [], bearer: [] }, { apiKey: [] }],
    };
  }
  return tidyOpenApi({
    openapi: '3.1.0',
    info: {
      title: 'Device-monitoring API',
      version: '1.0.0',
      description:
        'Devices, filters, watchers, intervals and account administration for the device-monitoring dashboard. ' +
        'Every request needs the x-api-key header. Errors are JSON {"message", "errors"?}. ' +
        'Besides the headers each answer documents, every answer to an origin in CORS_ORIGINS carries the CORS headers; ' +
        "deployed, API Gateway adds x-amzn-RequestId, the requestId of the request's log line.",
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
      schemas: components,
      headers: headerComponents,
    },
  }, areaDescription);
};

/** An area's description: the leading comment of its schemas/<area>.ts, read with the TypeScript scanner. */
const areaDescription = (area: string): string => {
  const text = readFileSync(join(root, 'schemas', `${area}.ts`), 'utf8');
  const [first] = ts.getLeadingCommentRanges(text, 0) ?? [];
  if (!first) return '';
  return text
    .slice(first.pos, first.end)
    .replace(/^\/\*\*?|\*\/$/g, '')
    .split('\n')
    .map((line) => line.replace(/^\s*\*\s?/, '').trim())
    .filter(Boolean)
    .join(' ');
};

export const renderOpenApi = async () => `${JSON.stringify(await buildOpenApi(), null, 2)}\n`;
