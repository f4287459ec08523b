import { expect, inject } from 'vitest';
import { contractBreach } from './answers';
import { apiClient } from '../../client/index';

export interface ApiResponse<T = unknown> {
  status: number;
  body: T;
  headers: Headers;
}

interface CallOptions {
  body?: unknown;
  /** A raw body string sent as is (malformed JSON and the like). */
  raw?: string;
  /** `null` sends no key at all. */
  key?: string | null;
  headers?: Record<string, string>;
  /** Sent as `Authorization: Bearer <token>` (account group). */
  token?: string;
}

/**
 * One HTTP call against the offline server, with the test API key unless told otherwise. Throws
 * when the answer breaks the contract of the route it reached (tests/support/answers.ts).
 */
export const api = async <T = unknown>(method: string, path: string, options: CallOptions = {}): Promise<ApiResponse<T>> => {
  const headers: Record<string, string> = { ...options.headers };
  const key = options.key === undefined ? inject('apiKey') : options.key;
  if (key !== null) headers['x-api-key'] = key;
  if (options.token !== undefined) headers.authorization ??= `Bearer ${options.token}`;
  let payload: string | undefined = options.raw;
  if (options.body !== undefined) {
    payload = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const response = await fetch(`${inject('apiUrl')}${path}`, { method, headers, body: payload });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = text === '' ? undefined : JSON.parse(text);
  } catch {
    /* not JSON: keep the text so the assertion shows it */
  }
  const breach = await contractBreach(method, path, response.status, body);
  if (breach) throw new Error(breach);
  return { status: response.status, body: body as T, headers: response.headers };
};

/** The typed client (client/index.ts) against the offline server, with the test API key. */
export const typedApi = (options: { accessToken?: string } = {}) => apiClient({ baseUrl: inject('apiUrl'), apiKey: inject('apiKey'), ...options });

/** DELETE of a stored record: 200 with `confirmation`, then GET and a second DELETE answer 404 with `notFound`. */
export const expectDeletedOnce = async (path: string, confirmation: string, notFound: string) => {
  expect(await api('DELETE', path)).toMatchObject({ status: 200, body: confirmation });
  expect(await api('GET', path)).toMatchObject({ status: 404, body: notFound });
  expect(await api('DELETE', path)).toMatchObject({ status: 404, body: notFound });
};

/** Calls against a private instance (its own URL, read when called, and its own key): the status and the parsed body (if any). */
export const plainCallerOf =
  (url: () => string, key: string) =>
  async <T = unknown>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> => {
    const response = await fetch(`${url()}${path}`, {
      method,
      headers: { 'x-api-key': key, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: (text ? JSON.parse(text) : undefined) as T };
  };

/** `plainCallerOf`, with the answers checked against the route contracts like `api`'s. */
export const callerOf = (url: () => string, key: string) => {
  const call = plainCallerOf(url, key);
  return async <T = unknown>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> => {
    const answer = await call<T>(method, path, body);
    const breach = await contractBreach(method, path, answer.status, answer.body);
    if (breach) throw new Error(breach);
    return answer;
  };
};
