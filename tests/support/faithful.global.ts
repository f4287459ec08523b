import type { TestProject } from 'vitest/node';
import { startLocalStore } from '../../scripts/local/dynamo';
import { startFaithfulStore } from './faithful';

/**
 * The integration store in its faithful mode (DESIGN §3): dynalite behind the proxy of
 * faithful.ts, index reads lagging FAITHFUL_LAG_MS (default 1 s) and FAITHFUL_THROTTLE of the
 * data requests throttled (default 3%).
 */
export default async function setup(project: TestProject) {
  const store = await startLocalStore();
  const faithful = await startFaithfulStore(store.endpoint, {
    lagMs: Number(process.env.FAITHFUL_LAG_MS ?? 1000),
    throttleRate: Number(process.env.FAITHFUL_THROTTLE ?? 0.03),
  });
  project.provide('storeEndpoint', faithful.endpoint);
  return async () => {
    await faithful.close();
    await store.close();
  };
}
