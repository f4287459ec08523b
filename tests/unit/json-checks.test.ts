import { describe, expect, it } from 'vitest';
import { malformedStrings, MAX_JSON_DEPTH, nestsDeeperThan } from '#lib/shared/json';

const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);

describe('JSON checks over client input (no recursion)', () => {
  it('measures nesting up to the limit and refuses one level more', () => {
    expect(nestsDeeperThan(nested(MAX_JSON_DEPTH))).toBe(false);
    expect(nestsDeeperThan(nested(MAX_JSON_DEPTH + 1))).toBe(true);
    expect(nestsDeeperThan(`{"a":${nested(MAX_JSON_DEPTH)}}`)).toBe(true);
  });

  it('does not count brackets inside strings, escaped quotes included', () => {
    expect(nestsDeeperThan(JSON.stringify({ a: '['.repeat(100), b: '\\"[[[['.repeat(50) }))).toBe(false);
  });

  it('names lone surrogates in values and property names of a value nested far beyond any call stack', () => {
    let value: unknown = '\ud800';
    for (let i = 0; i < 200_000; i++) value = [value];
    expect(malformedStrings(value, 'body')).toEqual([`body${'[0]'.repeat(200_000)}`]);
    expect(malformedStrings({ a: ['ok', '\udc00'], ['\ud801']: 1, b: 'ok' }, 'body')).toEqual(['body.a[1]', 'body (a property name)']);
  });
});
