import type { TestProject } from 'vitest/node';
import { startLocalStore } from '../../scripts/local/dynamo';

/** One in-memory store for all integration files; each file gets its own table (table.setup.ts). */
export default async function setup(project: TestProject) {
  const given = process.env.TEST_STORE_ENDPOINT;
  if (given) return void project.provide('storeEndpoint', given);
  const store = await startLocalStore();
  project.provide('storeEndpoint', store.endpoint);
  return () => store.close();
}
