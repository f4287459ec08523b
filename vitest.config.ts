import { resolve } from 'node:path';
import { defineConfig } from 'vitest/config';

const alias = {
  '#lib': resolve(import.meta.dirname, 'lib'),
  '#schemas': resolve(import.meta.dirname, 'schemas'),
  '#generated': resolve(import.meta.dirname, 'generated'),
};

/** The engine's integration tests: incremental and full passes, storms, notifications, lifecycle, sync, rollups, lease, webhooks. */
const FAITHFUL_TESTS = [
  'alarms',
  'alarms-incremental',
  'alarms-scope',
  'storm',
  'notifications',
  'repeat-markers',
  'alarm-lifecycle',
  'devices-sync',
  'sync-fingerprints',
  'connectivity',
  'shards-summaries',
  'evaluator-lease',
  'webhook',
  'dynamodb-rules',
  'engine-progress',
  'maintenance-engine',
  'inhibition-engine',
  'maintenance-history',
  'acknowledgement-engine',
  'providers-sync',
  'reports',
  'probe28-engine',
  'probe28-reports',
  'escalation',
  'flapping',
  'observe',
  'status-poll',
  'zoom-events',
];

export default defineConfig({
  resolve: { alias },
  test: {
    // handlers log one JSON line per request; tests that care spy on the logger
    // ACCESS_MODE: handlers called in-process act as the spec's API key (npm start's default); unset means user
    env: { POWERTOOLS_LOG_LEVEL: 'SILENT', POWERTOOLS_METRICS_DISABLED: 'true', ACCESS_MODE: 'key' },
    reporters: ['default', './tests/support/summary-reporter.ts'],
    projects: [
      {
        extends: true,
        test: { name: 'unit', include: ['tests/unit/**/*.test.ts'] },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['tests/integration/**/*.test.ts'],
          globalSetup: ['tests/support/store.global.ts'],
          setupFiles: ['tests/support/table.setup.ts'],
          testTimeout: 20_000,
        },
      },
      {
        // the engine's integration tests once more, against DynamoDB's rules (tests/support/faithful.ts)
        extends: true,
        test: {
          name: 'faithful',
          include: FAITHFUL_TESTS.map((name) => `tests/integration/${name}.test.ts`),
          globalSetup: ['tests/support/faithful.global.ts'],
          setupFiles: ['tests/support/table.setup.ts', 'tests/support/faithful.setup.ts'],
          env: { FAITHFUL_STORE: '1' },
          testTimeout: 40_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          globalSetup: ['tests/support/offline.global.ts'],
          // one server, one table: files that rewrite whole collections must not interleave
          fileParallelism: false,
          testTimeout: 60_000,
          hookTimeout: 180_000,
        },
      },
      {
        // the same service with ACCESS_MODE=user: who acts, per route, from the contracts (DESIGN §5)
        extends: true,
        test: {
          name: 'e2e-user',
          include: ['tests/e2e-user/**/*.test.ts'],
          globalSetup: ['tests/support/offline-user.global.ts'],
          fileParallelism: false,
          testTimeout: 60_000,
          hookTimeout: 180_000,
        },
      },
    ],
  },
});
