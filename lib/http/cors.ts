import type { HttpResult } from './respond';

/*
 * Browsers (DESIGN D9): one allow-list, CORS_ORIGINS (comma-separated exact origins), per stage in
 * serverless.yml and from the environment under npm start. A listed origin gets its own origin
 * back, never `*` and never credentials (the API takes keys and bearer tokens in headers, no
 * cookies); any other origin gets no Access-Control-Allow-* header at all.
 */

/** What a browser page may send: the key, a bearer token, a JSON body, the key of a create it may retry. */
const CORS_ALLOWED_HEADERS = ['x-api-key', 'authorization', 'content-type', 'idempotency-key'];
const ALLOWED_METHODS = 'GET,POST,PUT,DELETE,OPTIONS';
/** Headers a page may read besides the simple ones: when to retry, how to authenticate, whether a create was answered again, the next CSV page. */
const EXPOSED_HEADERS = 'retry-after,www-authenticate,idempotent-replayed,next-cursor';
const PREFLIGHT_MAX_AGE_SECONDS = '600';

const allowedOrigins = (list: string | undefined = process.env.CORS_ORIGINS): string[] =>
  (list ?? '')
    .split(',')
    .map((origin) => origin.trim())
    .filter(Boolean);

const isAllowed = (origin: string | undefined, allowed: readonly string[]): origin is string =>
  origin !== undefined && allowed.includes(origin);

/** Headers of any answer to a request from `origin`. */
export const corsHeaders = (origin: string | undefined, allowed: readonly string[] = allowedOrigins()): Record<string, string> => {
  if (origin === undefined) return {};
  if (!isAllowed(origin, allowed)) return { vary: 'origin' };
  return { vary: 'origin', 'access-control-allow-origin': origin, 'access-control-expose-headers': EXPOSED_HEADERS };
};

/** The answer to a preflight (`OPTIONS`): 204 with the allowed headers for a listed origin, 403 without any otherwise. */
export const preflight = (origin: string | undefined, allowed: readonly string[] = allowedOrigins()): HttpResult => {
  if (!isAllowed(origin, allowed)) {
    return { statusCode: 403, body: { message: `Origin ${origin === undefined ? '(none)' : JSON.stringify(origin)} is not allowed (CORS_ORIGINS)` }, headers: { vary: 'origin' } };
  }
  return {
    statusCode: 204,
    body: undefined,
    headers: {
      ...corsHeaders(origin, allowed),
      'access-control-allow-methods': ALLOWED_METHODS,
      'access-control-allow-headers': CORS_ALLOWED_HEADERS.join(','),
      'access-control-max-age': PREFLIGHT_MAX_AGE_SECONDS,
    },
  };
};
