/**
 * What the project declares, read the same way by the generator, the OpenAPI document, the
 * benchmarks and the tests: the route and job contracts of schemas/<area>.ts. A route `key` of
 * area `a` is the function `a` + `Key`, whose handler is functions/<a>/<key>.ts.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { TSchema } from '@sinclair/typebox';
import type { JobContract, RouteContract } from '#lib/http/contract';

export const root = resolve(__dirname, '..');

export type Schema = Record<string, unknown>;

interface Declared {
  /** schemas/<area>.ts and functions/<area>/ */
  area: string;
  /** The key in the area's `routes` or `jobs`, and the handler's file name. */
  key: string;
  functionName: string;
  /** Source file of the handler, e.g. `functions/intervals/get.ts` */
  handlerFile: string;
  contractFile: string;
}

export interface Route extends Declared {
  method: RouteContract['method'];
  /** As declared, e.g. `intervals/{id}` */
  path: string;
  /** Needs the API key: every route does (DESIGN D9) but a vendor's webhook, whose contract says `apiKey: false`. */
  private: boolean;
  contract: RouteContract;
}

export interface Job extends Declared {
  contract: JobContract;
}

interface AreaModule {
  routes?: Record<string, RouteContract>;
  jobs?: Record<string, JobContract>;
}

const capitalize = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

/** The areas, one contract file each (shared.ts holds building blocks). */
export const areas = (): string[] =>
  readdirSync(join(root, 'schemas'))
    .filter((file) => file.endsWith('.ts') && file !== 'shared.ts')
    .map((file) => file.slice(0, -'.ts'.length))
    .sort();

const declared = (area: string, key: string): Declared => ({
  area,
  key,
  functionName: `${area}${capitalize(key)}`,
  handlerFile: `functions/${area}/${key}.ts`,
  contractFile: `schemas/${area}.ts`,
});

let loaded: Promise<{ routes: Route[]; jobs: Job[] }> | undefined;

/** Every route and job, areas in name order, each area in declaration order. */
export const contracts = (): Promise<{ routes: Route[]; jobs: Job[] }> =>
  (loaded ??= (async () => {
    const routes: Route[] = [];
    const jobs: Job[] = [];
    for (const area of areas()) {
      const module = (await import(join(root, 'schemas', `${area}.ts`))) as AreaModule;
      for (const [key, contract] of Object.entries(module.routes ?? {})) {
        routes.push({ ...declared(area, key), method: contract.method, path: contract.path, private: contract.apiKey !== false, contract });
      }
      for (const [key, contract] of Object.entries(module.jobs ?? {})) jobs.push({ ...declared(area, key), contract });
    }
    const missing = [...routes, ...jobs].filter((fn) => !existsSync(join(root, fn.handlerFile)));
    if (missing.length) throw new Error(`no handler file for ${missing.map((fn) => `${fn.functionName} (${fn.handlerFile})`).join(', ')}`);
    const seen = new Set<string>();
    for (const { method, path, functionName } of routes) {
      if (seen.has(`${method} ${path}`)) throw new Error(`${method} /${path} is declared twice (again by ${functionName})`);
      seen.add(`${method} ${path}`);
    }
    return { routes, jobs };
  })());

/** Every http route. */
export const routes = async (): Promise<Route[]> => (await contracts()).routes;

/**
 * A route that seals or opens something with the stage's secret (lib/store/cursor.ts): it pages
 * (a `cursor` query parameter) or keeps idempotent results. Its binding loads the secret before
 * the handler runs, and only its role may read it (resources/permissions.yml `CursorSecretRead`).
 */
export const needsStageSecret = (contract: RouteContract): boolean => contract.idempotent === true || contract.request?.query?.cursor !== undefined;

/** Every function, routes and jobs, with its serverless events. */
export const functionDefs = async (): Promise<(Declared & { events: Record<string, unknown>[] })[]> => {
  const { routes, jobs } = await contracts();
  return [
    ...routes.map((route) => ({ ...route, events: [{ http: { method: route.method.toLowerCase(), path: route.path, private: route.private } }] })),
    ...jobs.map((job) => ({ ...job, events: job.contract.events })),
  ];
};

const strictObject = (properties: Record<string, TSchema>, required: string[]): Schema => ({
  type: 'object',
  additionalProperties: false,
  required,
  properties,
});

/**
 * The API Gateway event as the route's validator sees it: body, path and query parameters; none
 * when the route takes no input. Absent query strings arrive as null.
 */
export const eventSchema = (contract: RouteContract): Schema | undefined => {
  const { request } = contract;
  if (!request) return undefined;
  const required: string[] = [];
  const properties: Record<string, Schema> = {};
  if (request.body && !request.bodyOptional) {
    required.push('body');
    properties.body = request.body;
  }
  if (request.path) {
    required.push('pathParameters');
    properties.pathParameters = strictObject(request.path, Object.keys(request.path));
  }
  if (request.query) {
    properties.queryStringParameters = { anyOf: [{ type: 'null' }, strictObject(request.query, [])] };
  }
  if (request.body && request.bodyOptional) properties.body = request.body;
  return { type: 'object', required, properties };
};
