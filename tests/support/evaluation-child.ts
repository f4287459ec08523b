/**
 * A process that dies in the middle of an alarm evaluation (tests/integration/evaluator-lease.test.ts):
 * it evaluates with the store given in its environment, and halts for good at the run's first
 * device-severity write, after the alarms are written and before any room is recomputed, saying
 * HALTED. The test then kills it with SIGKILL, as a crash would.
 */
import { dynamo } from '#lib/store/client';
import { runEvaluation } from '#lib/alarms/engine/run';
import { outboxMailer } from '#lib/adapters/mail';

dynamo.middlewareStack.add(
  (next) => async (args) => {
    const input = args.input as { UpdateExpression?: string; ExpressionAttributeNames?: Record<string, string> };
    if (input.UpdateExpression && Object.values(input.ExpressionAttributeNames ?? {}).includes('alarmSeverity')) {
      process.stdout.write('HALTED\n');
      await new Promise(() => {});
    }
    return next(args);
  },
  { step: 'initialize', name: 'halt-at-severity' },
);

void runEvaluation({ mailer: outboxMailer(), mode: 'forced' });
