import { join } from 'node:path';
import type { CompiledValidator } from '#lib/http/validation';
import type { Schema } from '#schemas/common';
import { eventSchemas as declared, root } from '../../scripts/registry';

/** Every event schema of schemas/*.ts by validator name. */
export const eventSchemas = async (): Promise<Record<string, Schema>> =>
  Object.fromEntries((await declared()).map(({ name, schema }) => [name, schema]));

/** The compiled (generated) validator of that name. */
export const compiledValidator = async (name: string): Promise<CompiledValidator> =>
  ((await import(join(root, 'schemas', 'generated', `${name}.ts`))) as { default: CompiledValidator }).default;

/** What an event schema says about the request: whether it takes a body, which path parameters. */
export const requestShape = (schema: Schema | undefined) => {
  const properties = (schema?.properties ?? {}) as Record<string, Schema>;
  const path = (properties.pathParameters?.properties ?? {}) as Record<string, Schema>;
  return { hasBody: 'body' in properties, pathParams: Object.keys(path) };
};
