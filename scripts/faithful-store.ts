import { startLocalStore } from './local/dynamo';
import { startFaithfulStore } from '../tests/support/faithful';

/*
 * A DynamoDB-faithful local store for trying the service under DynamoDB's rules (DESIGN §3):
 * dynalite behind the proxy of tests/support/faithful.ts. Then, in another shell:
 *   DYNAMODB_ENDPOINT=<printed endpoint> npm start
 * FAITHFUL_LAG_MS (default 1500) and FAITHFUL_THROTTLE (default 0.03) set its index lag and
 * throttled share. Ctrl-C stops it; its data lives in memory only.
 */
const lagMs = Number(process.env.FAITHFUL_LAG_MS ?? 1500);
const throttleRate = Number(process.env.FAITHFUL_THROTTLE ?? 0.03);
const main = async () => {
  const store = await startLocalStore();
  const faithful = await startFaithfulStore(store.endpoint, { lagMs, throttleRate });
  console.log(`faithful store on ${faithful.endpoint} (index lag ${lagMs} ms, ${throttleRate * 100}% throttled)`);
  const stop = async () => {
    console.log('throttled', faithful.stats.throttled, 'partial batches', faithful.stats.partial, 'refused', faithful.stats.refused);
    await faithful.close();
    await store.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
};
void main();
