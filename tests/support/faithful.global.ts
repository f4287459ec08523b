import type { TestProject } from 'vitest/node';
import { sharedTestStore } from '../../scripts/local/dynamo';
import { startFaithfulStore } from './faithful';

/**
 * The integration store in its faithful mode (DESIGN §3): the run's DynamoDB Local (shared
 * with the integration project) behind the proxy of faithful.ts, index reads lagging
 * FAITHFUL_LAG_MS (default 1 s), FAITHFUL_THROTTLE of the data requests throttled (default 3%)
 * and FAITHFUL_CONFLICTS of the transactions cancelled by a conflict (default 2%).
 */
export default async function setup(project: TestProject) {
  const store = await sharedTestStore();
  const faithful = await startFaithfulStore(store.endpoint, {
    lagMs: Number(process.env.FAITHFUL_LAG_MS ?? 1000),
    throttleRate: Number(process.env.FAITHFUL_THROTTLE ?? 0.03),
    conflictRate: Number(process.env.FAITHFUL_CONFLICTS ?? 0.02),
  });
  project.provide('storeEndpoint', faithful.endpoint);
  return async () => {
    await faithful.close();
    await store.release();
  };
}
