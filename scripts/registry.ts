/**
 * What the project declares, read the same way by the schema build, the OpenAPI generator,
 * the benchmarks and the tests: the http routes of functions/<area>/routes.yml and the
 * request schemas and route docs of schemas/<area>.ts.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { load } from 'js-yaml';
import type { RouteDoc, Schema } from '../schemas/common';

export const root = resolve(__dirname, '..');

export interface Route {
  functionName: string;
  /** Source file of the handler, e.g. `functions/intervals/get.ts` */
  handlerFile: string;
  method: string;
  /** As declared, e.g. `intervals/{id}` */
  path: string;
  private: boolean;
}

export interface FunctionDef {
  name: string;
  handlerFile: string;
  events: { http?: { method: string; path: string; private?: boolean }; schedule?: unknown }[];
}

/** Each area's routes file, as serverless.yml includes them. */
export const routeFiles = (): string[] =>
  readdirSync(join(root, 'functions'), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => `functions/${entry.name}/routes.yml`);

/** Every function declared in functions/<area>/routes.yml. */
export const functionDefs = (): FunctionDef[] =>
  routeFiles().flatMap((file) => {
    const functions = load(readFileSync(join(root, file), 'utf8')) as Record<
      string,
      { handler: string; events?: FunctionDef['events'] }
    >;
    return Object.entries(functions).map(([name, fn]) => ({
      name,
      handlerFile: `${fn.handler.replace(/\.[^.]+$/, '')}.ts`,
      events: fn.events ?? [],
    }));
  });

/** Every http route. */
export const routes = (): Route[] =>
  functionDefs().flatMap((fn) =>
    fn.events.flatMap((event) =>
      event.http
        ? [
            {
              functionName: fn.name,
              handlerFile: fn.handlerFile,
              method: event.http.method.toUpperCase(),
              path: event.http.path,
              private: event.http.private === true,
            },
          ]
        : [],
    ),
  );

/** The name of the generated validator a handler imports (`#schemas/generated/<name>`), if any. */
export const validatorName = (route: Pick<Route, 'handlerFile'>): string | undefined =>
  /#schemas\/generated\/(\w+)/.exec(readFileSync(join(root, route.handlerFile), 'utf8'))?.[1];

interface SchemaModule {
  events?: Record<string, Schema>;
  docs?: Record<string, RouteDoc>;
}

const schemaModules = async (): Promise<[string, SchemaModule][]> => {
  const dir = join(root, 'schemas');
  const files = readdirSync(dir).filter((f) => f.endsWith('.ts') && f !== 'common.ts');
  return Promise.all(files.map(async (file) => [file, (await import(join(dir, file))) as SchemaModule] as [string, SchemaModule]));
};

/** Every request event schema by validator name, with the file that declares it. */
export const eventSchemas = async (): Promise<{ name: string; file: string; schema: Schema }[]> =>
  (await schemaModules()).flatMap(([file, module]) =>
    Object.entries(module.events ?? {}).map(([name, schema]) => ({ name, file, schema })),
  );

/** Every route doc (summary, answers) by function name. */
export const routeDocs = async (): Promise<Record<string, RouteDoc>> =>
  Object.assign({}, ...(await schemaModules()).map(([, module]) => module.docs ?? {}));
