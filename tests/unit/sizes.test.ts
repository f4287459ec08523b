import { describe, expect, it } from 'vitest';
import { itemBytes, jsonBytes, MAX_ITEM_BYTES, utf8Bytes } from '#lib/shared/sizes';

describe('sizes as DynamoDB counts them (issue 24 item 8)', () => {
  it('counts strings and attribute names in UTF-8 bytes, not characters', () => {
    expect(utf8Bytes('abc')).toBe(3);
    expect(utf8Bytes('中')).toBe(3);
    expect(utf8Bytes('🎥')).toBe(4);
    expect(itemBytes({ name: '中中' })).toBe(4 + 6);
    expect(itemBytes({ 名: 'x' })).toBe(3 + 1);
  });

  it('counts numbers by digits, booleans and null as one byte, lists and maps with their overhead', () => {
    expect(itemBytes({ n: 12 })).toBe(1 + 2);
    expect(itemBytes({ b: true, z: null })).toBe(2 + 2);
    // list: 3 + 1 per element; map: 3 + 1 per entry, plus names
    expect(itemBytes({ l: ['ab', 'c'] })).toBe(1 + 3 + 2 + 2 + 1);
    expect(itemBytes({ m: { k: 'v' } })).toBe(1 + 3 + 1 + 1 + 1);
  });

  it('walks deep values without recursion', () => {
    let deep: unknown = 'x';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(itemBytes({ d: deep })).toBe(1 + 100_000 * 4 + 1);
  });

  it('a value of 150,000 three-byte characters is over the item limit though under 400,000 characters', () => {
    const text = '中'.repeat(150_000);
    expect(text.length).toBeLessThan(MAX_ITEM_BYTES);
    expect(itemBytes({ text })).toBeGreaterThan(MAX_ITEM_BYTES);
    expect(jsonBytes({ text })).toBe(450_000 + 11);
  });
});
