/*
 * Reads of a key shared by the changes that need it, without ever answering a change with a
 * read that began before the change was stored: at most one read per key is in flight; callers
 * arriving while it runs share the next one, which starts when it settles. Under a burst of
 * changes (a sync, a storm) the hot scope keys (`all#all#all`, a region's) are read once per
 * round trip instead of once per change; a single change waits for nothing.
 */
export const sharedReads = <T>(read: (key: string) => Promise<T>): ((key: string) => Promise<T>) => {
  const running = new Map<string, Promise<unknown>>();
  const queued = new Map<string, Promise<T>>();
  const start = (key: string): Promise<T> => {
    queued.delete(key); // from here on, newcomers wait for a later read
    const reading = read(key);
    running.set(key, reading);
    const settled = () => {
      if (running.get(key) === reading) running.delete(key);
    };
    reading.then(settled, settled);
    return reading;
  };
  return (key) => {
    const waiting = queued.get(key);
    if (waiting) return waiting;
    const current = running.get(key);
    if (!current) return start(key);
    const next = current.then(
      () => start(key),
      () => start(key),
    );
    queued.set(key, next);
    return next;
  };
};
