import type { TestProject } from 'vitest/node';
import { startLocalStore } from '../../scripts/local/dynamo';
import { localTableName, storeEnv } from '../../scripts/local/env';
import { startOffline } from '../../scripts/local/offline';
import { freePort } from '../../scripts/local/ports';

export const E2E_API_KEY = 'e2e-test-api-key';
const STAGE = 'dev';

/**
 * The service as a user runs it: an embedded store of its own, the local bootstrap,
 * and serverless-offline on a free port with its own build folder and API key.
 * The table name must be the stage's: serverless.yml sets TABLE_NAME for the handlers.
 */
export default async function setup(project: TestProject) {
  const store = await startLocalStore();
  const env = { ...storeEnv(store.endpoint), TABLE_NAME: localTableName(STAGE), API_KEY: E2E_API_KEY };
  Object.assign(process.env, env);
  const { bootstrap } = await import('../../scripts/local/bootstrap');
  await bootstrap();
  const offline = await startOffline({
    port: await freePort(),
    stage: STAGE,
    env,
    workFolder: '.esbuild-e2e',
    // E2E_SERVER_LOGS=1 shows the server's own output (handler logs, stack traces)
    output: process.env.E2E_SERVER_LOGS === '1' ? 'inherit' : 'pipe',
  });
  project.provide('apiUrl', offline.url);
  project.provide('apiKey', E2E_API_KEY);
  return async () => {
    await offline.stop();
    await store.close();
  };
}
