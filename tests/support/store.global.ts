import type { TestProject } from 'vitest/node';
import { sharedTestStore } from '../../scripts/local/dynamo';

/**
 * The run's one in-memory DynamoDB Local, shared with the faithful project's setup (which puts
 * its proxy in front of it); each file gets its own table (table.setup.ts).
 * TEST_STORE_ENDPOINT points the files at a store already running instead.
 */
export default async function setup(project: TestProject) {
  if (process.env.TEST_STORE_ENDPOINT) {
    project.provide('storeEndpoint', process.env.TEST_STORE_ENDPOINT);
    return;
  }
  const store = await sharedTestStore();
  project.provide('storeEndpoint', store.endpoint);
  return () => store.release();
}
