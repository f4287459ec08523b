import { describe, expect, it } from 'vitest';
import { describeSchemaErrors, summarize } from '#lib/shared/validation';

describe('describeSchemaErrors', () => {
  it('writes array positions as indexes and decodes JSON-pointer escapes', () => {
    const details = describeSchemaErrors([
      { instancePath: '/body/operations/conditions/0/value', keyword: 'type', params: {}, message: 'must be string' },
      { instancePath: '/body/a~1b', keyword: 'type', params: {}, message: 'must be integer' },
    ]);
    expect(details.map((d) => d.field)).toEqual(['body.operations.conditions[0].value', 'body.a/b']);
  });

  it('lists the allowed values of an enum', () => {
    const [detail] = describeSchemaErrors([
      { instancePath: '/body/operatorType', keyword: 'enum', params: { allowedValues: ['AND', 'OR'] }, message: 'x' },
    ]);
    expect(detail?.message).toBe('body.operatorType must be one of "AND", "OR"');
  });

  it('drops anyOf wrappers and duplicates', () => {
    const details = describeSchemaErrors([
      { instancePath: '/body/x', keyword: 'type', params: {}, message: 'must be string' },
      { instancePath: '/body/x', keyword: 'type', params: {}, message: 'must be string' },
      { instancePath: '/body', keyword: 'anyOf', params: {}, message: 'must match a schema in anyOf' },
    ]);
    expect(details).toHaveLength(1);
  });

  it('summarizes at most five problems', () => {
    const many = Array.from({ length: 7 }, (_, i) => ({ field: `f${i}`, message: `f${i} bad` }));
    expect(summarize(many)).toBe('Invalid request: f0 bad; f1 bad; f2 bad; f3 bad; f4 bad (and 2 more)');
  });
});
