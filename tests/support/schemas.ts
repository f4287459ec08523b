import { join } from 'node:path';
import type { CompiledValidator } from '#lib/shared/validation';
import { eventSchema, root, type Route, type Schema } from '../../scripts/registry';

/** The event schema a route's contract declares (none for routes that take no input). */
export const eventSchemaOf = (route: Route): Schema | undefined => eventSchema(route.contract);

/** The compiled (generated) validator of a function. */
export const compiledValidator = async (functionName: string): Promise<CompiledValidator> =>
  ((await import(join(root, 'generated', 'validators', `${functionName}.ts`))) as { default: CompiledValidator }).default;

/** What an event schema says about the request: whether it takes a body, which path parameters. */
export const requestShape = (schema: Schema | undefined) => {
  const properties = (schema?.properties ?? {}) as Record<string, Schema>;
  const path = (properties.pathParameters?.properties ?? {}) as Record<string, Schema>;
  return { hasBody: 'body' in properties, pathParams: Object.keys(path) };
};
