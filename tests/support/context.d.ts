import 'vitest';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Endpoint of the embedded store started for integration tests. */
    storeEndpoint: string;
    /** Base URL of serverless-offline started for end-to-end tests, stage included. */
    apiUrl: string;
    apiKey: string;
  }
}
