import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import fc from 'fast-check';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { validatorOptions } from '../../scripts/generate';
import { contracts, eventSchema, root, type Schema } from '../../scripts/registry';
import { describeSchemaErrors, type CompiledValidator } from '#lib/shared/validation';

/*
 * The generated validators are compiled without ajv's `verbose` and name a rule from the
 * schema's descriptions by schema path (withRules). Reference: the same schema compiled with
 * `verbose`, as they were before. For inputs shaped like each schema, with wrong values
 * anywhere, both must accept the same inputs and give the same client-facing details.
 */
const wrong = fc.oneof(
  fc.constantFrom(null, true, 0, -1, 1.5, 1e12, '', ' ', 'all', 'x'.repeat(300), '\u0000', 'a\nb', '2024-02-30T00:00:00Z', 'not a date', 'ftp://x', 'no-at', [], {}),
  fc.string({ maxLength: 4 }),
  fc.integer({ min: -3, max: 3 }),
);

/** Values shaped like the schema (objects with its properties, arrays of its items, its enums), wrong anywhere. */
const shaped = (schema: Schema, depth = 0): fc.Arbitrary<unknown> => {
  if (depth > 8) return wrong;
  const like: fc.Arbitrary<unknown>[] = [wrong];
  const properties = schema.properties as Record<string, Schema> | undefined;
  if (properties) {
    const record = fc.record(Object.fromEntries(Object.entries(properties).map(([key, sub]) => [key, shaped(sub, depth + 1)])), { requiredKeys: [], noNullPrototype: true });
    like.push(record, fc.tuple(record, fc.constantFrom('extra', 'regionName', 'constructor'), wrong).map(([value, key, extra]) => ({ ...value, [key]: extra })));
  }
  if (schema.items && typeof schema.items === 'object') like.push(fc.array(shaped(schema.items as Schema, depth + 1), { maxLength: 4 }));
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    const branches = schema[key] as Schema[] | undefined;
    if (branches) like.push(...branches.map((branch) => shaped(branch, depth + 1)));
  }
  if (Array.isArray(schema.enum)) like.push(fc.constantFrom(...(schema.enum as unknown[])));
  if ('const' in schema) like.push(fc.constant(schema.const));
  if (schema.type === 'string') like.push(fc.string({ maxLength: 12 }), fc.date({ noInvalidDate: true }).map((d) => d.toISOString()));
  if (schema.type === 'integer' || schema.type === 'number') like.push(fc.integer({ min: -2, max: 100_000 }));
  return fc.oneof(...like);
};

const schemas = async (): Promise<{ name: string; schema: Schema }[]> => {
  const { routes, jobs } = await contracts();
  return [
    ...routes.flatMap((route) => {
      const schema = eventSchema(route.contract);
      return schema ? [{ name: route.functionName, schema }] : [];
    }),
    ...jobs.flatMap((job) => (job.contract.validates ? [{ name: job.functionName, schema: job.contract.validates as Schema }] : [])),
  ];
};

describe('validators compiled without verbose', () => {
  it('accept and describe every input as the verbose ones did, for every validated function', async () => {
    const all = await schemas();
    expect(all.length).toBeGreaterThan(40);
    const ajv = new Ajv({ ...validatorOptions, verbose: true, code: {} });
    addFormats(ajv, ['email', 'uri', 'date-time']);
    for (const { name, schema } of all) {
      const reference = ajv.compile(schema) as unknown as CompiledValidator;
      const generated = ((await import(join(root, 'generated', 'validators', `${name}.ts`))) as { default: CompiledValidator }).default;
      fc.assert(
        fc.property(shaped(schema), (input) => {
          const valid = generated(input);
          expect([name, valid]).toEqual([name, reference(input)]);
          expect([name, describeSchemaErrors(generated.errors)]).toEqual([name, describeSchemaErrors(reference.errors)]);
        }),
        { numRuns: 150 },
      );
    }
  }, 60_000);
});
