import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { JSONSchemaFaker } from 'json-schema-faker';
import { root, type Route } from '../../scripts/registry';
import { compiledValidator, eventSchemaOf } from './schemas';
import { violationsOf, type Violation } from './prism';
import { seededRandom } from '../../lib/shared/random';

/*
 * What the Prism sweep (tests/e2e/prism-contract.test.ts) sends and how it judges what comes back:
 * requests generated from each route's request schema, answers judged by Prism against
 * docs/openapi.json and, for headers, by the document's own list of each answer's headers.
 */

type Json = Record<string, unknown>;
interface HeaderObject {
  required?: boolean;
  $ref?: string;
}
interface Operation {
  operationId: string;
  responses: Record<string, { headers?: Record<string, HeaderObject> }>;
}

export const openApi = JSON.parse(readFileSync(join(root, 'docs', 'openapi.json'), 'utf8')) as {
  paths: Record<string, Record<string, Operation>>;
  components: { headers?: Record<string, HeaderObject> };
};

/** The document's operation of a route (the operationId is the route's function name). */
export const operationOf = (route: Route): Operation => {
  const operation = openApi.paths[`/${route.path}`]?.[route.method.toLowerCase()];
  if (!operation) throw new Error(`docs/openapi.json has no ${route.method} /${route.path}`);
  return operation;
};

const resolved = (header: HeaderObject): HeaderObject =>
  header.$ref ? (openApi.components.headers?.[header.$ref.split('/').pop()!] ?? header) : header;

/** The headers the document gives an answer of `status` of `route`, by lower-case name: whether each is required. */
export const documentedHeaders = (route: Route, status: number): Map<string, boolean> =>
  new Map(Object.entries(operationOf(route).responses[String(status)]?.headers ?? {}).map(([name, header]) => [name.toLowerCase(), resolved(header).required === true]));

/** Every header name the document gives any answer. */
export const allDocumentedHeaders = (): Set<string> =>
  new Set(
    Object.values(openApi.paths).flatMap((item) =>
      Object.values(item).flatMap((operation) => Object.values(operation.responses).flatMap((answer) => Object.keys(answer.headers ?? {}).map((name) => name.toLowerCase()))),
    ),
  );

/**
 * Headers of the transport and of the platform, not of the API's contract: HTTP framing and
 * caching (serverless-offline's and API Gateway's), CORS (one allow-list for every answer,
 * docs/adr/0111-cors.md), API Gateway's error type, and Prism's own report.
 */
const TRANSPORT = /^(content-type|content-length|date|connection|keep-alive|transfer-encoding|accept-ranges|cache-control|vary|access-control-.*|x-amzn-errortype|sl-violations)$/;

/** One request through Prism and what came back. */
export interface Exchange {
  route: Route;
  label: string;
  status: number;
  headers: Headers;
  body: string;
  violations: Violation[];
}

/**
 * Why an answer breaks docs/openapi.json, each reason a line: what Prism found wrong with it (an
 * undocumented status, a body or media type the document does not give, a required header
 * missing), and any header the API sends that the document does not give for that status.
 */
export const breaches = (exchange: Exchange): string[] => {
  const { route, status, headers } = exchange;
  const where = `${exchange.label}: ${route.method} /${route.path} (${route.functionName}) answered ${status}`;
  const found = exchange.violations.filter((v) => v.location[0] === 'response').map((v) => `${where}: Prism: ${v.location.join('.')} ${v.message}`);
  const documented = documentedHeaders(route, status);
  for (const name of headers.keys()) {
    if (!TRANSPORT.test(name) && !documented.has(name)) found.push(`${where} with the header ${name}, which the document does not give this answer`);
  }
  for (const [name, required] of documented) {
    if (required && !headers.has(name)) found.push(`${where} without the header ${name}, which the document requires`);
  }
  return found;
};

/** What Prism found wrong with the request itself. */
export const requestViolations = (exchange: Exchange): Violation[] => exchange.violations.filter((v) => v.location[0] === 'request');

export interface RequestParts {
  path: Record<string, string>;
  query: Record<string, string>;
  body?: unknown;
}

/** A generator with its own seeded sequence, so a run sends the same requests every time. */
const seeded = seededRandom;

/**
 * The schema with each if/then/else made a choice of its branches (the generator does not follow
 * conditions): a webhook channel with its url, or an e-mail channel with its addresses.
 */
const branched = (schema: unknown): unknown => {
  if (Array.isArray(schema)) return schema.map(branched);
  if (!schema || typeof schema !== 'object') return schema;
  const { if: condition, then, else: otherwise, ...rest } = schema as Json;
  const walked = Object.fromEntries(Object.entries(rest).map(([key, value]) => [key, branched(value)]));
  if (condition === undefined) return walked;
  return { anyOf: [then, otherwise].filter((branch) => branch !== undefined).map((branch) => ({ allOf: [walked, branched(branch)] })) };
};

const textOf = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value));

/**
 * A request the route's own validator accepts (its event schema: path, query, body), generated
 * from that schema (only the required properties, or else every one): the first of a few seeded
 * tries that passes. Undefined when none did (then the sweep names the route).
 */
export const validRequest = async (route: Route, seed: number): Promise<RequestParts | undefined> => {
  const declared = eventSchemaOf(route);
  if (!declared) return { path: {}, query: {} };
  const schema = branched(declared);
  const validate = await compiledValidator(route.functionName);
  for (let attempt = 0; attempt < 20; attempt++) {
    // the required properties first; then every property
    const everything = attempt >= 10;
    JSONSchemaFaker.option({
      random: seeded(seed * 100 + attempt),
      requiredOnly: !everything,
      alwaysFakeOptionals: everything,
      fillProperties: false,
      useDefaultValue: true,
      maxItems: 2,
      maxLength: 64,
      failOnInvalidTypes: false,
      failOnInvalidFormat: false,
      // times a route accepts: around now (windows, silences and maintenance look ahead and back)
      minDateTime: new Date(Date.now() - 86_400_000),
      maxDateTime: new Date(Date.now() + 86_400_000),
    });
    const event = JSONSchemaFaker.generate(schema as Parameters<typeof JSONSchemaFaker.generate>[0]) as Json;
    const candidate = { pathParameters: event.pathParameters ?? null, queryStringParameters: event.queryStringParameters ?? null, body: event.body };
    // path and query values travel as text
    const path = Object.fromEntries(Object.entries((candidate.pathParameters ?? {}) as Json).map(([k, v]) => [k, textOf(v)]));
    const query = Object.fromEntries(Object.entries((candidate.queryStringParameters ?? {}) as Json).map(([k, v]) => [k, textOf(v)]));
    const delivered = { pathParameters: Object.keys(path).length ? path : null, queryStringParameters: Object.keys(query).length ? query : null, body: candidate.body };
    // a value the URL would not carry as one segment (empty, a slash, a dot segment) is no fair sample
    if (Object.values(path).some((v) => v === '' || v.includes('/') || v === '.' || v === '..')) continue;
    if (validate(delivered)) return { path, query, body: candidate.body };
  }
  return undefined;
};

/** The URL path of a route with its path parameters filled in. */
export const pathOf = (route: Route, path: Record<string, string>): string =>
  `/${route.path.replace(/\{([^}]+)\}/g, (_whole, name: string) => encodeURIComponent(path[name] ?? '1'))}`;

/** Sends one request to Prism (which forwards it to the server) and keeps what came back. */
export const exchange = async (
  prismUrl: string,
  route: Route,
  label: string,
  request: { path: string; query?: Record<string, string>; headers: Record<string, string>; body?: string },
): Promise<Exchange> => {
  const search = request.query && Object.keys(request.query).length ? `?${new URLSearchParams(request.query).toString()}` : '';
  const response = await fetch(`${prismUrl}${request.path}${search}`, { method: route.method, headers: request.headers, body: request.body });
  const body = await response.text();
  return { route, label, status: response.status, headers: response.headers, body, violations: violationsOf(response.headers) };
};
