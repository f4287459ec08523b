import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { load } from 'js-yaml';

export interface Route {
  functionName: string;
  /** Source file of the handler, e.g. `functions/intervals/get.ts` */
  handlerFile: string;
  method: string;
  /** As declared, e.g. `intervals/{id}` */
  path: string;
  private: boolean;
}

interface HttpEvent {
  http?: { method: string; path: string; private?: boolean };
}

const root = resolve(__dirname, '..', '..');
const functionsDir = join(root, 'functions');

/** Each area's routes file, as serverless.yml includes them. */
export const routeFiles = (): string[] =>
  readdirSync(functionsDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => `functions/${entry.name}/routes.yml`);

/** Every http route declared in functions/<area>/routes.yml. */
export const routes = (): Route[] =>
  routeFiles().flatMap((file) => {
    const functions = load(readFileSync(join(root, file), 'utf8')) as Record<string, { handler: string; events?: HttpEvent[] }>;
    return Object.entries(functions).flatMap(([functionName, fn]) =>
      (fn.events ?? [])
        .filter((event) => event.http)
        .map((event) => ({
          functionName,
          handlerFile: `${fn.handler.replace(/\.[^.]+$/, '')}.ts`,
          method: event.http!.method.toUpperCase(),
          path: event.http!.path,
          private: event.http!.private === true,
        })),
    );
  });

/** A concrete URL path for a route: every `{param}` replaced by a harmless sample value. */
export const samplePath = (route: Route): string => `/${route.path.replace(/\{[^}]+\}/g, '1')}`;

/** The name of the generated validator a handler imports (`#schemas/generated/<name>`), if any. */
export const validatorName = (route: Route): string | undefined =>
  /#schemas\/generated\/(\w+)/.exec(readFileSync(join(root, route.handlerFile), 'utf8'))?.[1];
