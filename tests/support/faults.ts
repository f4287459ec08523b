import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { dynamo } from '#lib/store/client';

type Fault = 'throttle' | 'timeout' | 'condition';

const make = (fault: Fault): Error => {
  if (fault === 'condition') {
    return new ConditionalCheckFailedException({ message: 'The conditional request failed', $metadata: {} });
  }
  const error = new Error(fault === 'throttle' ? 'Rate of requests exceeds the allowed throughput' : 'socket timed out');
  error.name = fault === 'throttle' ? 'ThrottlingException' : 'TimeoutError';
  return error;
};

/**
 * Makes the shared DynamoDB client fail the next `times` commands named `command`
 * (e.g. 'PutCommand', 'UpdateCommand'), after letting the first `after` of them through, before
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
      // DocumentClient commands reach the client as their low-level twins (PutCommand -> PutItemCommand)
      if (left > 0 && commandName.replace('Item', '') === command && passed++ >= after) {
        left--;
        throw make(fault);
      }
      return next(args);
    },
    { step: 'initialize', name },
  );
  return () => dynamo.middlewareStack.remove(name);
};
