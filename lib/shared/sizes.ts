/*
 * Sizes as the store and Lambda count them: bytes of UTF-8, never characters. DynamoDB refuses
 * an item over 400 KB counted by its own rules (names and values in UTF-8, numbers by their
 * digits, 3 bytes per list or map plus 1 per element); dynalite counts characters, so a limit
 * checked in characters lets an item through locally that AWS refuses. Every
 * limit that protects an item's size uses `itemBytes`; every one that protects an answer `jsonBytes`.
 */

/** DynamoDB's item limit: 400 KB, attribute names included. */
export const MAX_ITEM_BYTES = 400 * 1024;

/** Bytes of a string in UTF-8 (what DynamoDB, S3 and HTTP count). */
export const utf8Bytes = (text: string): number => Buffer.byteLength(text, 'utf8');

/** A number as DynamoDB stores it: about one byte per two significant digits, plus one. */
const numberBytes = (value: number): number => {
  const digits = String(Math.abs(value)).replace(/e.*$/, '').replace('.', '').replace(/^0+/, '').length;
  return Math.min(21, Math.ceil(Math.max(1, digits) / 2) + 1);
};

/**
 * An item's (or attribute value's) size by DynamoDB's rules. Iterative, with an explicit stack:
 * the value may come from a client, and no client input is walked by recursion.
 */
export const itemBytes = (item: unknown): number => {
  let total = 0;
  const pending: unknown[] = [item];
  while (pending.length > 0) {
    const value = pending.pop();
    if (typeof value === 'string') total += utf8Bytes(value);
    else if (typeof value === 'number') total += numberBytes(value);
    else if (typeof value === 'boolean' || value === null) total += 1;
    else if (value instanceof Uint8Array) total += value.byteLength;
    else if (value instanceof Set) {
      for (const member of value) pending.push(member);
    } else if (Array.isArray(value)) {
      total += 3 + value.length;
      for (const element of value) pending.push(element);
    } else if (typeof value === 'object' && value !== undefined) {
      const entries = Object.entries(value).filter(([, v]) => v !== undefined);
      // the item itself is not a map: only nested maps pay the overhead
      total += value === item ? 0 : 3 + entries.length;
      for (const [name, v] of entries) {
        total += utf8Bytes(name);
        pending.push(v);
      }
    }
  }
  return total;
};

/** Bytes of a value's JSON in UTF-8: what it adds to an answer. */
export const jsonBytes = (value: unknown): number => utf8Bytes(JSON.stringify(value) ?? '');
