import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { InvalidCursor } from '#lib/shared/errors';

// Sealed cursors: `<position>.<tag>`, an HMAC for the query, keyed by the stage's secret (ADRs 0109, 0165).
let processKey: Buffer | undefined;
let loaded: string | undefined;
/** Hands in the stage's secret as read at run time (lib/adapters/secrets.ts). */
export const useStageSecret = (value: string): void => {
  loaded = value;
};
/** The stage's sealing secret: cursors here, kept idempotent results (lib/http/idempotency.ts). */
// the process's own key is made on first use: building it at import cost every cold start
export const stageSecret = (): Buffer | string => loaded || process.env.CURSOR_SECRET || (processKey ??= randomBytes(32));

const TAG_BYTES = 16;
/** Longer than any position this API writes; bounded before any parsing or hashing. */
const MAX_CURSOR_LENGTH = 2048;

const tag = (query: string, position: string): Buffer =>
  createHmac('sha256', stageSecret()).update(query).update('\n').update(position).digest().subarray(0, TAG_BYTES);

export const badCursor = () => new InvalidCursor();

/** The cursor of a position, valid only for `query` (an identity of the endpoint and its filters). */
export const sealCursor = (query: string, position: Record<string, unknown>): string => {
  const encoded = Buffer.from(JSON.stringify(position)).toString('base64url');
  return `${encoded}.${tag(query, encoded).toString('base64url')}`;
};

/** The position a cursor holds, if this API sealed it for `query`; otherwise a 422. */
export const openCursor = (query: string, cursor: string): Record<string, unknown> => {
  const [encoded, sent, extra] = cursor.length <= MAX_CURSOR_LENGTH ? cursor.split('.') : [];
  if (!encoded || !sent || extra !== undefined) throw badCursor();
  const expected = tag(query, encoded);
  const given = Buffer.from(sent, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw badCursor();
  const value: unknown = JSON.parse(Buffer.from(encoded, 'base64url').toString('utf8'));
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw badCursor();
  return value as Record<string, unknown>;
};

/** A key attribute fit to be sent back to the store: a non-empty string within DynamoDB's key size. */
export const isKeyString = (value: unknown): value is string =>
  typeof value === 'string' && value.length > 0 && Buffer.byteLength(value) <= 1024;
