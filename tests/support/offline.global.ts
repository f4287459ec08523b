import { generateKeyPairSync } from 'node:crypto';
import type { TestProject } from 'vitest/node';
import { startInstance, stillFleetEnv } from '../../scripts/local/instance';

export const E2E_API_KEY = 'e2e-test-api-key';
export const E2E_ADMIN = { username: 'e2e-admin', password: 'Granite-harbour-lantern-8472' };

/**
 * The service exactly as a user runs it (`npm start` in its own process group, private data,
 * ports, build folder and API key). E2E_SERVER_LOGS=1 shows the server's output. `env` adds to
 * (or overrides) the e2e settings: the `e2e-user` project runs a second one with ACCESS_MODE=user.
 */
export const startE2EServer = async (project: TestProject, options: { workFolder: string; env?: Record<string, string> }) => {
  // the server's token signing key, also given to the tests so they can craft tokens it must refuse
  const tokenKey = generateKeyPairSync('ed25519', { privateKeyEncoding: { type: 'pkcs8', format: 'pem' }, publicKeyEncoding: { type: 'spki', format: 'pem' } });
  const instance = await startInstance({
    workFolder: options.workFolder,
    echo: process.env.E2E_SERVER_LOGS === '1',
    env: {
      API_KEY: E2E_API_KEY,
      ADMIN_USERNAME: E2E_ADMIN.username,
      ADMIN_PASSWORD: E2E_ADMIN.password,
      JWT_PRIVATE_KEY: tokenKey.privateKey,
      JWT_PUBLIC_KEY: tokenKey.publicKey,
      // cheaper hashes for tests only; the production default is asserted in tests/unit
      PASSWORD_SCRYPT_LOG_N: '14',
      // a still, known demo fleet: e2e counts are reproducible
      ...stillFleetEnv,
      SEED_DEVICES: '240',
      // webhook retries after one second (the production first delay is 30 s)
      NOTIFY_RETRY_BASE_SECONDS: '1',
      SIM_ROOMS: '',
      // alarm mail only to the tests' own domain (tests/e2e/mail-relay.test.ts)
      MAIL_ALLOWED_DOMAINS: 'example.com,*.example.net',
      ...options.env,
    },
  });
  project.provide('apiUrl', instance.url);
  project.provide('docsUrl', instance.docsUrl);
  project.provide('apiKey', E2E_API_KEY);
  project.provide('admin', E2E_ADMIN);
  project.provide('tokenPrivateKey', tokenKey.privateKey);
  return () => instance.stop();
};

/** The `e2e` project: the spec's contract, ACCESS_MODE=key (npm start's default). */
export default (project: TestProject) => startE2EServer(project, { workFolder: '.esbuild-e2e', env: { ACCESS_MODE: 'key' } });
