import { resolve } from 'node:path';
import { defineConfig } from 'vitest/config';

const alias = {
  '#lib': resolve(import.meta.dirname, 'lib'),
  '#contracts': resolve(import.meta.dirname, 'contracts'),
  '#generated': resolve(import.meta.dirname, 'generated'),
};

export default defineConfig({
  resolve: { alias },
  test: {
    // handlers log one JSON line per request; tests that care spy on the logger
    env: { POWERTOOLS_LOG_LEVEL: 'SILENT', POWERTOOLS_METRICS_DISABLED: 'true' },
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
    ],
  },
});
