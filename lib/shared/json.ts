import { Invalid } from '#lib/shared/errors';

/*
 * Checks over client JSON that never recurse: a 10 KB body of 5,100 `[` overflowed the stack of
 * a recursive walk and answered 5xx. The nesting is measured on the text before anything walks
 * the parsed value, and the walks below keep their own stack, so no depth a client chooses can
 * reach the call stack. JSON.parse itself does not recurse.
 */

/** Deepest nesting of arrays and objects a request body or socket message may have: deeper input is refused before it can exhaust the parser or the validator's stack (docs/guide/rules/http.md "JSON nesting limit: 32 levels"). */
export const MAX_JSON_DEPTH = 32;

/**
 * Whether JSON text nests arrays and objects deeper than `max`: one pass over the characters,
 * brackets inside strings not counted. Text that is not JSON is judged as far as it goes (the
 * parser reports it).
 */
export const nestsDeeperThan = (text: string, max = MAX_JSON_DEPTH): boolean => {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: the next character is escaped
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
};

/** Refuses (the caller's invalid-input status) JSON text that nests deeper than the limit, naming it. */
export const requireShallow = (text: string, field: string): void => {
  if (!nestsDeeperThan(text)) return;
  const message = `${field} nests arrays and objects deeper than ${MAX_JSON_DEPTH} levels (the nesting limit)`;
  throw new Invalid(`Invalid request: ${message}`, [{ field, message }]);
};

/** A UTF-16 surrogate without its partner: JSON allows it (`"\ud800"`), Unicode text does not. */
const LONE_SURROGATE = /\p{Cs}/u;

const MAX_REPORTED = 20;

/**
 * Fields (`body.a[0].b`, also object keys) holding strings that are not well-formed Unicode, in
 * document order, at most 20. Walks with a stack of its own (see the header).
 */
export const malformedStrings = (root: unknown, rootField: string): string[] => {
  const found: string[] = [];
  const pending: [unknown, string][] = [[root, rootField]];
  while (pending.length > 0 && found.length < MAX_REPORTED) {
    const [value, field] = pending.pop()!;
    if (typeof value === 'string') {
      if (LONE_SURROGATE.test(value)) found.push(field);
    } else if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) pending.push([value[i], `${field}[${i}]`]);
    } else if (typeof value === 'object' && value !== null) {
      const entries = Object.entries(value);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, item] = entries[i]!;
        if (LONE_SURROGATE.test(key)) pending.push([key, `${field} (a property name)`]);
        else pending.push([item, `${field}.${key}`]);
      }
    }
  }
  return found;
};
