import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { dynamo } from '#lib/store/client';

type Fault = 'throttle' | 'timeout' | 'condition';

/** A failed condition as DynamoDB words it for a transaction: cancelled, the first action's condition named, the rest `None`. */
const cancelled = (actions: number): Error =>
  new TransactionCanceledException({
    message: 'Transaction cancelled, please refer cancellation reasons for specific reasons',
    CancellationReasons: Array.from({ length: Math.max(actions, 1) }, (_, i) => ({ Code: i === 0 ? 'ConditionalCheckFailed' : 'None' })),
    $metadata: {},
  });

const make = (fault: Fault, transactItems?: number): Error => {
  if (fault === 'condition' && transactItems !== undefined) return cancelled(transactItems);
  if (fault === 'condition') {
    return new ConditionalCheckFailedException({ message: 'The conditional request failed', $metadata: {} });
  }
  const error = new Error(fault === 'throttle' ? 'Rate of requests exceeds the allowed throughput' : 'socket timed out');
  error.name = fault === 'throttle' ? 'ThrottlingException' : 'TimeoutError';
  return error;
};

/**
 * Makes the shared DynamoDB client fail the next `times` commands named `command`
 * (e.g. 'PutCommand', 'UpdateCommand', 'TransactWriteCommand': an audited route's change and its
 * audit record are one transaction), after letting the first `after` of them through, before
 * the SDK sends anything, so the store is untouched by them (a crash between two writes, with
 * `after: 1`). Returns a function that removes the fault.
 */
export const injectFault = (fault: Fault, command: string, times = 1, after = 0): (() => void) => {
  let left = times;
  let passed = 0;
  const name = `fault-${fault}-${command}-${Math.random()}`;
  dynamo.middlewareStack.add(
    (next, context) => async (args) => {
      const commandName = (context as { commandName?: string }).commandName ?? '';
      // DocumentClient commands reach the client as their low-level twins (PutCommand -> PutItemCommand,
      // TransactWriteCommand -> TransactWriteItemsCommand)
      if (left > 0 && commandName.replace(/Items?(?=Command$)/, '') === command && passed++ >= after) {
        left--;
        const items = (args.input as { TransactItems?: unknown[] }).TransactItems;
        throw make(fault, items?.length);
      }
      return next(args);
    },
    { step: 'initialize', name },
  );
  return () => dynamo.middlewareStack.remove(name);
};
