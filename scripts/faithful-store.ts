import { startLocalStore } from './local/dynamo';
import { javaProblem } from './local/java';
import { startFaithfulStore } from '../tests/support/faithful';

/*
 * A DynamoDB-faithful local store for trying the service under DynamoDB's rules (DESIGN §3):
 * an in-memory DynamoDB Local behind the proxy of tests/support/faithful.ts. Then, in another shell:
 *   DYNAMODB_ENDPOINT=<printed endpoint> npm start
 * FAITHFUL_LAG_MS (default 1500), FAITHFUL_THROTTLE (default 0.03) and FAITHFUL_CONFLICTS
 * (default 0.02) set its index lag, throttled share and share of transactions cancelled as
 * conflicting. Ctrl-C stops it, the JVM with it; its data lives in memory only.
 */
const lagMs = Number(process.env.FAITHFUL_LAG_MS ?? 1500);
const throttleRate = Number(process.env.FAITHFUL_THROTTLE ?? 0.03);
const conflictRate = Number(process.env.FAITHFUL_CONFLICTS ?? 0.02);
const main = async () => {
  const javaMissing = javaProblem();
  if (javaMissing) {
    console.error(javaMissing);
    process.exit(1);
  }
  const store = await startLocalStore();
  const faithful = await startFaithfulStore(store.endpoint, { lagMs, throttleRate, conflictRate });
  console.log(`faithful store on ${faithful.endpoint} (DynamoDB Local behind it; index lag ${lagMs} ms, ${throttleRate * 100}% throttled, ${conflictRate * 100}% of transactions conflicting)`);
  const stop = async () => {
    const { throttled, partial, refused, conflicts } = faithful.stats;
    console.log('throttled', throttled, 'partial batches', partial, 'refused', refused, 'conflicts', conflicts);
    await faithful.close();
    await store.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
};
main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
