/*
 * The board's calls to the API: the key from config.json on every call, and the signed-in
 * person's bearer token when there is one. The token lives in this module's memory only, never
 * in localStorage or sessionStorage: any script of the origin can read those, and a board left
 * open on a shared screen should forget who signed in when the tab closes or reloads.
 */

export interface Config {
  apiUrl: string;
  apiKey: string;
  /** Seconds between polls while the socket is down, and between checks while it is up (default 5). */
  pollSeconds?: number;
  /** Seconds between full reloads while live, so that maintenance windows opening and closing show (default 60). */
  reloadSeconds?: number;
}

/** The API refused the caller: 401 (nobody signed in, or the token ended) or 403 (not allowed). */
export class Refused extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** No answer, or an answer that is neither a success nor a refusal. */
export class Unreachable extends Error {}

/** An answer the board asked for that the API turned down (400, 404, 409, 422): shown beside the action. */
export class Declined extends Error {}

export interface Session {
  token: string;
  username: string;
  /** The permissions of the person's role, read once at sign-in. */
  permissions: string[];
}

let config: Config;
let session: Session | undefined;

export const configure = (value: Config) => {
  config = value;
};
export const currentSession = (): Session | undefined => session;
export const endSession = () => {
  session = undefined;
};

/** Without a token, the key alone acts (ACCESS_MODE=key): every permission but admin (docs/guide/access.md). */
const KEY_PERMISSIONS = ['fleet:read', 'alarms:ack', 'silences:write'];

/** Whether whoever the board acts for may do `permission`. */
export const may = (permission: string): boolean => (session ? session.permissions.includes(permission) : KEY_PERMISSIONS.includes(permission));

const send = async (method: string, path: string, body: unknown, token: string | undefined): Promise<Response> => {
  try {
    return await fetch(`${config.apiUrl}${path}`, {
      method,
      headers: {
        'x-api-key': config.apiKey,
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      // A call that hangs holds back the next load (one at a time): give up after two poll
      // intervals (5 to 29 s; API Gateway answers within 29 s or not at all), and say so.
      signal: AbortSignal.timeout(Math.min(29_000, Math.max(5_000, 2 * (config.pollSeconds ?? 5) * 1000))),
    });
  } catch (error) {
    // a browser says no more than "Failed to fetch" for a refused connection, a timeout, or an
    // answer it may not read (no CORS header: an origin not in CORS_ORIGINS, or API Gateway
    // refusing the key before the API could answer)
    throw new Unreachable(
      `${config.apiUrl} did not answer, or answered without letting this page read it (${error instanceof Error ? error.message : String(error)}): is the API running, is this page's origin in its CORS_ORIGINS, is config.json's apiKey right?`,
    );
  }
};

const messageOf = async (response: Response): Promise<string | undefined> => {
  const answer = (await response.json().catch(() => ({}))) as { message?: unknown };
  return typeof answer.message === 'string' ? answer.message : undefined;
};

export const api = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
  const response = await send(method, path, body, session?.token);
  if (response.status === 401 || response.status === 403) {
    const message = await messageOf(response);
    throw new Refused(response.status, `${method} ${path.split('?')[0]} answered ${response.status}${message ? `: ${message}` : ''}`);
  }
  if (response.status >= 400 && response.status < 500 && response.status !== 429) {
    throw new Declined((await messageOf(response)) ?? `${method} ${path.split('?')[0]} answered ${response.status}`);
  }
  if (!response.ok) throw new Unreachable(`${method} ${path.split('?')[0]} answered ${response.status}`);
  return (await response.json()) as T;
};

/** Signs in (ACCESS_MODE=user's sign-in) and reads the permissions of the person's role. */
export const signIn = async (username: string, password: string): Promise<Session> => {
  const response = await send('POST', '/api/authService/auth/signin', { username, password }, undefined);
  const answer = (await response.json().catch(() => ({}))) as { accessToken?: string; message?: string; user?: { role?: string } };
  if (!response.ok || !answer.accessToken) throw new Declined(answer.message ?? `Sign-in answered ${response.status}`);
  const role = await send('GET', `/api/authService/role/${encodeURIComponent(answer.user?.role ?? '')}`, undefined, answer.accessToken);
  const permissions = role.ok ? ((await role.json()) as { permissions?: string[] }).permissions ?? [] : [];
  session = { token: answer.accessToken, username, permissions };
  return session;
};

export const signOut = async () => {
  const token = session?.token;
  session = undefined;
  if (token) await send('POST', '/api/authService/auth/logout', undefined, token).catch(() => undefined);
};
