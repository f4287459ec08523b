import 'vitest';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Endpoint of the embedded store started for integration tests. */
    storeEndpoint: string;
    /** Base URL of serverless-offline started for end-to-end tests, stage included. */
    apiUrl: string;
    apiKey: string;
    /** The local docs page of that server. */
    docsUrl: string;
    /** The first admin the e2e server bootstraps (ADMIN_USERNAME / ADMIN_PASSWORD). */
    admin: { username: string; password: string };
    /** The e2e server's token signing key (PKCS#8 PEM), for crafting tokens it must refuse. */
    tokenPrivateKey: string;
  }
}
