/** Local defaults, documented in docs/guide/local.md. Every one can be overridden from the environment. */
export const LOCAL_API_KEY = 'local-dev-api-key-not-a-secret';
export const LOCAL_STAGE = 'dev';
export const LOCAL_REGION = 'eu-west-1';
/** The first admin of a local store (docs/guide/accounts.md); set ADMIN_USERNAME / ADMIN_PASSWORD to choose others. */
export const LOCAL_ADMIN_USERNAME = 'admin';
export const LOCAL_ADMIN_PASSWORD = 'local-admin-password';

/** The names a browser on this machine may use for the pages npm start serves (the page server listens on 127.0.0.1). */
export const LOCAL_PAGE_HOSTS = ['localhost', '127.0.0.1'] as const;

/**
 * The default CORS allow-list of `npm start` (CORS_ORIGINS overrides it): the origins of the pages
 * npm start itself serves, under each name a browser may open them by. A board opened at
 * 127.0.0.1 whose calls the API refused would look empty, not broken. A new local page passes its
 * port here.
 */
export const localPageOrigins = (pagePorts: readonly number[]): string =>
  pagePorts.flatMap((port) => LOCAL_PAGE_HOSTS.map((host) => `http://${host}:${port}`)).join(',');

/**
 * ACCESS_MODE of `npm start`: `key` (the spec's contract, the API key alone acts) unless the
 * environment says `user` (a bearer token on every route but sign-in and token exchange).
 */
export const localAccessMode = (value: string | undefined): 'key' | 'user' => {
  if (value === undefined || value === '' || value === 'key') return 'key';
  if (value === 'user') return 'user';
  throw new Error(`ACCESS_MODE must be key or user (got ${value})`);
};

export const localTableName = (stage = LOCAL_STAGE) => `device-monitoring-${stage}`;

/** What the SDK needs to talk to the embedded store: any credentials, a region, the endpoint. */
export const storeEnv = (endpoint: string): Record<string, string> => ({
  AWS_ENDPOINT_URL_DYNAMODB: endpoint,
  AWS_ACCESS_KEY_ID: process.env.AWS_ACCESS_KEY_ID ?? 'local',
  AWS_SECRET_ACCESS_KEY: process.env.AWS_SECRET_ACCESS_KEY ?? 'local',
  AWS_REGION: process.env.AWS_REGION ?? LOCAL_REGION,
  // Lambda runs Node 22; the SDK's notice about this machine's Node 20 is noise here.
  AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
});

/**
 * DYNAMODB_ENDPOINT, checked: an http(s) URL (DynamoDB Local, LocalStack, a proxy, AWS), or
 * undefined when unset (npm start then runs its own embedded store).
 */
export const externalEndpoint = (value: string | undefined): string | undefined => {
  if (!value) return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`DYNAMODB_ENDPOINT must be an http(s) URL such as http://localhost:8000 (got ${value})`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`DYNAMODB_ENDPOINT must be an http(s) URL (got ${value})`);
  return value.replace(/\/+$/, '');
};

/**
 * The SDK's settings for an external store: its endpoint and region, and the shell's credentials
 * (AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY, or AWS_PROFILE for an AWS table); dummy ones only when
 * the shell has none (DynamoDB Local and LocalStack accept any).
 */
export const externalStoreEnv = (endpoint: string): Record<string, string> => {
  const env = storeEnv(endpoint);
  if (process.env.AWS_PROFILE && !process.env.AWS_ACCESS_KEY_ID) {
    delete env.AWS_ACCESS_KEY_ID;
    delete env.AWS_SECRET_ACCESS_KEY;
  }
  return env;
};

