/** Local defaults, documented in the README. Every one can be overridden from the environment. */
export const LOCAL_API_KEY = 'local-dev-api-key-not-a-secret';
export const LOCAL_STAGE = 'dev';
export const LOCAL_REGION = 'eu-west-1';
/** The first admin of a local store (README); set ADMIN_USERNAME / ADMIN_PASSWORD to choose others. */
export const LOCAL_ADMIN_USERNAME = 'admin';
export const LOCAL_ADMIN_PASSWORD = 'local-admin-password';

/**
 * The default CORS allow-list of `npm start` (CORS_ORIGINS overrides it): the origins of the pages
 * npm start itself serves. A new local page passes its port here.
 */
export const localPageOrigins = (pagePorts: readonly number[]): string => pagePorts.map((port) => `http://localhost:${port}`).join(',');

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
