import { randomUUID } from 'node:crypto';
import { inject } from 'vitest';
import { storeEnv } from '../../scripts/local/env';

// Runs before each integration file, before it imports lib/: point the SDK at the
// embedded store and give the file a table of its own, so files never see each other's data.
Object.assign(process.env, storeEnv(inject('storeEndpoint')), { TABLE_NAME: `test-${randomUUID()}` });

const { dynamo, tableName } = await import('#lib/store/client');
const { ensureTable } = await import('#lib/store/definition');
await ensureTable(dynamo, tableName());
