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
