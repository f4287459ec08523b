/**
 * `map` with at most `limit` calls in flight; results keep the input order. On the first
 * failure no further call starts, the calls in flight are awaited (so nothing is still writing
 * when the caller counts what landed), then it rejects with that failure.
 */
export const mapConcurrent = async <T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> => {
  const results = new Array<R>(items.length);
  let next = 0;
  let failure: { error: unknown } | undefined;
  const worker = async () => {
    while (next < items.length && !failure) {
      const i = next++;
      try {
        results[i] = await fn(items[i]!);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  if (failure) throw failure.error;
  return results;
};

/**
 * Writes in flight for the background engines (sync, evaluation): DynamoDB serves thousands
 * of writes a second per table, spread over partitions; 8 left it idle. WRITES_IN_FLIGHT overrides.
 */
export const writesInFlight = (): number => {
  const value = Number(process.env.WRITES_IN_FLIGHT ?? 64);
  return Number.isInteger(value) && value > 0 ? value : 64;
};
