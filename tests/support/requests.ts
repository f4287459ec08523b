import { dynamo } from '#lib/store/client';

/**
 * Calls `watch` with the name and input of every command the shared store client sends while
 * `run` runs (what a test counts: reads of a key, writes, batch sizes), then stops watching.
 */
export const watchingRequests = async (watch: (command: string, input: Record<string, unknown>) => void, run: () => Promise<unknown>): Promise<void> => {
  const name = `watch-requests-${Math.random()}`;
  dynamo.middlewareStack.add(
    (next, context) => async (args) => {
      watch((context as { commandName?: string }).commandName ?? '', args.input as Record<string, unknown>);
      return next(args);
    },
    { step: 'initialize', name },
  );
  try {
    await run();
  } finally {
    dynamo.middlewareStack.remove(name);
  }
};
