/**
 * A typed client of the API for TypeScript callers (the dashboard, our e2e tests):
 * openapi-fetch over the types `npm run openapi` generates from docs/openapi.json, so a path,
 * a body or an answer that does not match the document is a compile error.
 *
 *   const api = apiClient({ baseUrl: 'http://localhost:3000/dev', apiKey: 'local-dev-api-key-not-a-secret' });
 *   const { data, error, response } = await api.POST('/filters/location', { body: { regionName: 'EMEA' } });
 */
import createClient from 'openapi-fetch';
import type { paths } from './openapi-types';

export type { components, operations, paths } from './openapi-types';

export interface ApiClientOptions {
  /** The stage's base URL, e.g. https://<id>.execute-api.<region>.amazonaws.com/prod */
  baseUrl: string;
  apiKey: string;
  /** An access token from POST /api/authService/auth/signin, for the account group. */
  accessToken?: string;
}

export const apiClient = ({ baseUrl, apiKey, accessToken }: ApiClientOptions) =>
  createClient<paths>({
    baseUrl,
    headers: { 'x-api-key': apiKey, ...(accessToken ? { authorization: `Bearer ${accessToken}` } : {}) },
  });

/**
 * The headers an operation documents for the answers of a status (docs/openapi.json), e.g.
 * `DocumentedHeaders<'/audit', 'get', 200>` has `next-cursor`; the open index signature of the
 * generated types is left out.
 */
export type DocumentedHeaders<P extends keyof paths, M extends keyof paths[P], S extends number> = paths[P][M] extends {
  responses: infer R;
}
  ? S extends keyof R
    ? R[S] extends { headers: infer H }
      ? { [K in keyof H as string extends K ? never : K]: H[K] }
      : never
    : never
  : never;

/** What the API's own answer headers say, read from a response (`response` of openapi-fetch). A browser page reads them too: CORS exposes each. */
export interface AnswerHeaders {
  /** `Retry-After` (429, 503, and 409 of a create whose Idempotency-Key is still being processed): seconds to wait before sending again. */
  retryAfterSeconds?: number;
  /** `WWW-Authenticate` (401): the credential to send, `Bearer`. */
  wwwAuthenticate?: string;
  /** `idempotent-replayed: true` (2xx of a create sent with an Idempotency-Key): the first result, answered again; nothing was created this time. */
  idempotentReplayed: boolean;
  /** `next-cursor` (200 of a CSV page): the ?cursor of the next page; absent on the last one. */
  nextCursor?: string;
}

export const answerHeaders = (response: Pick<Response, 'headers'>): AnswerHeaders => {
  const retryAfter = Number(response.headers.get('retry-after') ?? Number.NaN);
  return {
    ...(Number.isFinite(retryAfter) ? { retryAfterSeconds: retryAfter } : {}),
    ...(response.headers.has('www-authenticate') ? { wwwAuthenticate: response.headers.get('www-authenticate')! } : {}),
    idempotentReplayed: response.headers.get('idempotent-replayed') === 'true',
    ...(response.headers.has('next-cursor') ? { nextCursor: response.headers.get('next-cursor')! } : {}),
  };
};
