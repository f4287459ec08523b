/**
 * A process that dies in the middle of an audited change (tests/integration/audit-crash.test.ts):
 * it sends PUT /intervals/{INTERVAL_ID} setting intervalDeviceStatus to CHILD_VALUE, to the store
 * given in its environment, and halts for good at the point HALT_AT names, saying HALTED:
 * `before-N` just before its N-th write request goes out, `after-N` once the store answered it
 * (nothing of the request's later writes sent). The test then kills it with SIGKILL, as a crash would.
 */
import { dynamo } from '#lib/store/client';
import { handler as updateInterval } from '../../functions/intervals/update';
import { jsonEvent, lambdaContext } from './events';

const WRITES = new Set(['PutItemCommand', 'UpdateItemCommand', 'DeleteItemCommand', 'BatchWriteItemCommand', 'TransactWriteItemsCommand']);
const [when, at] = (process.env.HALT_AT ?? '').split('-');
const halt = async (): Promise<never> => {
  process.stdout.write('HALTED\n');
  return new Promise<never>(() => {});
};
let writes = 0;

dynamo.middlewareStack.add(
  (next, context) => async (args) => {
    if (!WRITES.has((context as { commandName?: string }).commandName ?? '')) return next(args);
    const n = ++writes;
    if (when === 'before' && n === Number(at)) await halt();
    const answer = await next(args);
    if (when === 'after' && n === Number(at)) await halt();
    return answer;
  },
  { step: 'initialize', name: 'halt-in-change' },
);

const id = process.env.INTERVAL_ID ?? '';
void updateInterval(
  jsonEvent({ intervalDeviceStatus: Number(process.env.CHILD_VALUE) }, { httpMethod: 'PUT', resource: '/intervals/{id}', pathParameters: { id } }),
  lambdaContext(),
).then(() => process.stdout.write('DONE\n'));
