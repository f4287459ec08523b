import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { CompiledValidator } from '#lib/http/validation';
import type { Schema } from '#schemas/common';

const schemasDir = resolve(__dirname, '..', '..', 'schemas');

/** Every event schema of schemas/*.ts by validator name, as scripts/build-schemas.ts sees them. */
export const eventSchemas = async (): Promise<Record<string, Schema>> => {
  const all: Record<string, Schema> = {};
  const files = readdirSync(schemasDir).filter((f) => f.endsWith('.ts') && f !== 'common.ts');
  for (const file of files) {
    const module = (await import(join(schemasDir, file))) as { events?: Record<string, Schema> };
    Object.assign(all, module.events);
  }
  return all;
};

/** The compiled (generated) validator of that name. */
export const compiledValidator = async (name: string): Promise<CompiledValidator> =>
  ((await import(join(schemasDir, 'generated', `${name}.ts`))) as { default: CompiledValidator }).default;

/** What an event schema says about the request: whether it takes a body, which path parameters. */
export const requestShape = (schema: Schema | undefined) => {
  const properties = (schema?.properties ?? {}) as Record<string, Schema>;
  const path = (properties.pathParameters?.properties ?? {}) as Record<string, Schema>;
  return { hasBody: 'body' in properties, pathParams: Object.keys(path) };
};
