/**
 * Comparing two answers to the same request, one from each version. Only noise is forgiven:
 * values that are random or clock-made on each side (UUIDs, timestamps, tokens, cursors, request
 * ids) and the order of list items that differ only by such values. Everything else is a
 * difference, reported with the JSON path where it shows.
 */

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;
const ISO_TIME = /\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?/g;
const JWT = /eyJ[\w-]{8,}\.[\w-]{8,}\.[\w-]{8,}/g;
/** an opaque token of the service (cursors, secrets, tickets): long base64url with no spaces */
const OPAQUE = /^[\w.-]{32,}={0,2}$/;
/** a random token inside a longer text (a live ticket in a URL) */
const TOKEN_IN_TEXT = /[\w-]{32,}/g;
const LOCAL_PORT = /(localhost|127\.0\.0\.1|\[::1\]):\d{2,5}/g;
/** epoch seconds or milliseconds of this century, in text (CSV cells, messages) */
const EPOCH = /\b1\d{9}(?:\d{3})?\b/g;
/** keys whose numbers may be clock readings (epoch seconds or milliseconds) */
const TIME_KEY = /(?:^|[a-z])(?:at|At|time|Time|since|Since|until|Until|expires|Expires|exp|iat|nbf|timestamp|Timestamp|Ms)$/;
/**
 * durations the service measures between two of its own clock readings (an alarm raised then
 * cleared): each side runs the same steps moments apart, so they may differ by a few seconds
 */
const MEASURED_KEY = /^(?:durationSeconds|durationMs)$/;
const MEASURED_TOLERANCE = { durationSeconds: 10, durationMs: 10_000 } as Record<string, number>;
/** a clock reading: epoch seconds or milliseconds after 2001 */
const isClockReading = (n: number) => n > 1e9;
/** a whole value that is one UUID: the ids each side makes */
const UUID_ONLY = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The same text with every noisy value replaced by its kind. */
export const placeholders = (text: string): string =>
  text
    .replace(JWT, '<jwt>')
    .replace(UUID, '<uuid>')
    .replace(ISO_TIME, '<time>')
    .replace(EPOCH, '<epoch>')
    // each side listens on ports of its own (a live URL names its WebSocket port)
    .replace(LOCAL_PORT, '$1:<port>')
    .replace(TOKEN_IN_TEXT, (token) => (/\d/.test(token) && /[a-z]/i.test(token) ? '<token>' : token));

/** random tokens mix letters and digits; a long run of one letter (an echoed over-long input) is not one */
const isOpaque = (text: string): boolean => OPAQUE.test(text) && /\d/.test(text) && /[a-z]/i.test(text);

/**
 * Availability is measured against the clock (a room's time online over the window up to now,
 * since the side's own first sync): the two sides, started a minute apart, differ in the last
 * digits. Ratios under these keys may differ by 0.001, percentages in text by 0.1 points.
 */
const RATIO_KEY = /^(?:availability|overall)$/;
const RATIO_TOLERANCE = 0.001;
const PERCENT = /(\d+(?:\.\d+)?)%/g;
const PERCENT_TOLERANCE = 0.1;

const closePercents = (a: string, b: string): boolean => {
  const skeleton = (text: string) => text.replace(PERCENT, '<pct>');
  if (skeleton(a) !== skeleton(b)) return false;
  const left = [...a.matchAll(PERCENT)].map((m) => Number(m[1]));
  const right = [...b.matchAll(PERCENT)].map((m) => Number(m[1]));
  return left.every((value, i) => Math.abs(value - right[i]!) <= PERCENT_TOLERANCE + 1e-9);
};

const isNoiseString = (a: string, b: string): boolean => {
  if (a === b) return true;
  if (isOpaque(a) && isOpaque(b)) return true;
  const [x, y] = [placeholders(a), placeholders(b)];
  return x === y || closePercents(x, y);
};

const isNoiseNumber = (key: string, a: number, b: number): boolean => {
  if (a === b) return true;
  if (RATIO_KEY.test(key)) return Math.abs(a - b) <= RATIO_TOLERANCE + 1e-12;
  if (MEASURED_KEY.test(key)) return Math.abs(a - b) <= MEASURED_TOLERANCE[key]!;
  // a clock reading under a time key: both sides answer within minutes of each other (other numbers, durations included, must be equal)
  if (!TIME_KEY.test(key) || !isClockReading(a) || !isClockReading(b)) return false;
  const tolerance = Math.max(a, b) > 1e11 ? 30 * 60_000 : 30 * 60;
  return Math.abs(a - b) <= tolerance;
};

/** A canonical text of a value with its noise replaced: what list items are matched by when their order differs. */
export const canonical = (value: unknown, key = ''): string => {
  if (typeof value === 'string') return JSON.stringify(isOpaque(value) ? '<opaque>' : placeholders(value));
  if (typeof value === 'number') {
    if (TIME_KEY.test(key) && isClockReading(value)) return '"<time-number>"';
    if (MEASURED_KEY.test(key)) return '"<measured>"';
    return RATIO_KEY.test(key) ? `"<ratio ${value.toFixed(2)}>"` : JSON.stringify(value);
  }
  if (Array.isArray(value)) return `[${value.map((v) => canonical(v, key)).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v, k)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'undefined';
};

export interface Difference {
  /** JSON path into the answer, or a header's name */
  at: string;
  base: unknown;
  other: unknown;
}

const short = (value: unknown): unknown => {
  const text = JSON.stringify(value);
  return text !== undefined && text.length > 300 ? `${text.slice(0, 300)}...` : value;
};

/** ids met at the same place of both answers: [base id, other id, where] */
export type IdPair = [string, string, string];

/**
 * The differences between two JSON values that are not noise. Objects are compared key by key
 * (a key on one side only is a difference); arrays element by element, and when that fails, as
 * multisets of their canonical texts (items whose order follows random ids). Whole-value UUIDs
 * met at the same place are collected in `pairs`, for `IdMap` to check that each side names the
 * same records throughout (pairs of an array compared as a multiset are not collected).
 */
export const differences = (a: unknown, b: unknown, at = '$', key = '', pairs: IdPair[] = []): Difference[] => {
  if (typeof a === 'string' && typeof b === 'string') {
    if (UUID_ONLY.test(a) && UUID_ONLY.test(b)) {
      pairs.push([a.toLowerCase(), b.toLowerCase(), at]);
      return [];
    }
    if (!isNoiseString(a, b)) return [{ at, base: short(a), other: short(b) }];
    // ids inside a text (an alarm's `<watcher id>:<serial>`, a message naming a record) pair up too
    const [inA, inB] = [a.match(UUID) ?? [], b.match(UUID) ?? []];
    if (inA.length === inB.length) inA.forEach((id, i) => pairs.push([id.toLowerCase(), inB[i]!.toLowerCase(), at]));
    return [];
  }
  if (typeof a === 'number' && typeof b === 'number') return isNoiseNumber(key, a, b) ? [] : [{ at, base: a, other: b }];
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) return [{ at: `${at}.length`, base: a.length, other: b.length }];
    const inOrderPairs: IdPair[] = [];
    const inOrder = a.flatMap((item, i) => differences(item, b[i], `${at}[${i}]`, key, inOrderPairs));
    if (!inOrder.length) {
      pairs.push(...inOrderPairs);
      return [];
    }
    const left = a.map((v) => canonical(v, key)).sort();
    const right = b.map((v) => canonical(v, key)).sort();
    if (left.every((text, i) => text === right[i])) return [];
    const onlyBase = left.filter((text) => !right.includes(text));
    const onlyOther = right.filter((text) => !left.includes(text));
    // as many items on each side without a match: say where each pair differs, not just that they do
    if (onlyBase.length === onlyOther.length && onlyBase.length <= 5) {
      try {
        const precise = onlyBase.flatMap((text, i) => differences(JSON.parse(text), JSON.parse(onlyOther[i]!), `${at} (as a set)[${i}]`, key));
        if (precise.length) return precise;
      } catch {
        /* not JSON (an undefined inside): the whole items below */
      }
    }
    return [{ at: `${at} (as a set)`, base: short(onlyBase), other: short(onlyOther) }];
  }
  if (a && b && typeof a === 'object' && typeof b === 'object' && !Array.isArray(a) && !Array.isArray(b)) {
    const x = a as Record<string, unknown>;
    const y = b as Record<string, unknown>;
    const keys = [...new Set([...Object.keys(x), ...Object.keys(y)])];
    return keys.flatMap((k) => {
      if (!(k in x)) return [{ at: `${at}.${k}`, base: '(absent)', other: short(y[k]) }];
      if (!(k in y)) return [{ at: `${at}.${k}`, base: short(x[k]), other: '(absent)' }];
      return differences(x[k], y[k], `${at}.${k}`, k, pairs);
    });
  }
  return Object.is(a, b) ? [] : [{ at, base: short(a), other: short(b) }];
};

/**
 * The ids of one side mapped to the other's over the whole run: a base id met beside two
 * different other ids (or the reverse) means one side named another record than before, a
 * difference no placeholder may hide.
 */
export class IdMap {
  private readonly forward = new Map<string, string>();
  private readonly backward = new Map<string, string>();

  check(pairs: readonly IdPair[]): Difference[] {
    const found: Difference[] = [];
    for (const [base, other, at] of pairs) {
      const knownOther = this.forward.get(base);
      const knownBase = this.backward.get(other);
      if ((knownOther !== undefined && knownOther !== other) || (knownBase !== undefined && knownBase !== base)) {
        found.push({ at: `${at} (id)`, base: `${base} (elsewhere paired with ${knownOther ?? 'nothing'})`, other: `${other} (elsewhere paired with ${knownBase ?? 'nothing'})` });
        continue;
      }
      this.forward.set(base, other);
      this.backward.set(other, base);
    }
    return found;
  }
}

/**
 * Text answers (CSV pages, HTML, plain errors): line by line with noise replaced, and as a
 * multiset of lines when the order follows random ids.
 */
export const textDifferences = (a: string, b: string, at = '$text'): Difference[] => {
  if (a === b) return [];
  const left = a.split(/\r?\n/).map(placeholders);
  const right = b.split(/\r?\n/).map(placeholders);
  if (left.length === right.length && left.every((line, i) => line === right[i])) return [];
  const sortedLeft = [...left].sort();
  const sortedRight = [...right].sort();
  if (sortedLeft.length === sortedRight.length && sortedLeft.every((line, i) => line === sortedRight[i])) return [];
  return [{ at, base: short(left.filter((l) => !right.includes(l))), other: short(right.filter((l) => !left.includes(l))) }];
};

/** Response headers that are noise by nature: transport, clock and per-request ids. */
const NOISE_HEADERS = new Set([
  'date',
  'connection',
  'keep-alive',
  'transfer-encoding',
  'content-length',
  'x-amzn-requestid',
  'x-amz-apigw-id',
  'x-amzn-trace-id',
  'x-amzn-remapped-content-length',
  'apigw-requestid',
  'x-request-id',
  'x-correlation-id',
]);

/** The headers that matter (everything but NOISE_HEADERS), lower-cased, their values with noise replaced. */
export const headerDifferences = (a: Headers, b: Headers): Difference[] => {
  const pick = (h: Headers) => {
    const out: Record<string, string> = {};
    h.forEach((value, name) => {
      if (!NOISE_HEADERS.has(name.toLowerCase())) out[name.toLowerCase()] = value;
    });
    return out;
  };
  const x = pick(a);
  const y = pick(b);
  const names = [...new Set([...Object.keys(x), ...Object.keys(y)])].sort();
  return names.flatMap((name) => {
    const [left, right] = [x[name], y[name]];
    if (left === undefined || right === undefined) return [{ at: `header ${name}`, base: left ?? '(absent)', other: right ?? '(absent)' }];
    // an entity tag hashes the body, whose ids differ on each side: present on both is what can be compared
    if (name === 'etag' || isNoiseString(left, right)) return [];
    return [{ at: `header ${name}`, base: left, other: right }];
  });
};
