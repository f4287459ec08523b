import { describe, expect, it } from 'vitest';
import { sharedReads } from '#lib/live/reads';

/** A read whose answer is the number of writes stored when it started; resolved by hand. */
const store = () => {
  let writes = 0;
  const started: { key: string; sawWrites: number; finish: () => void; fail: () => void }[] = [];
  const read = (key: string) =>
    new Promise<number>((resolve, reject) => {
      const sawWrites = writes;
      started.push({ key, sawWrites, finish: () => resolve(sawWrites), fail: () => reject(new Error('store down')) });
    });
  return { read, started, write: () => writes++ };
};
const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('shared subscriber reads (lib/live/reads.ts)', () => {
  it('never answers a caller with a read that began before it asked; callers during a read share the next one', async () => {
    const { read, started, write } = store();
    const shared = sharedReads(read);
    write();
    const first = shared('k');
    expect(started).toHaveLength(1);
    // three changes stored while the first read runs: they must see their own writes
    write();
    const second = shared('k');
    write();
    const third = shared('k');
    const fourth = shared('k');
    expect(started).toHaveLength(1);
    started[0]!.finish();
    expect(await first).toBe(1);
    await tick();
    expect(started).toHaveLength(2); // one read for the three
    started[1]!.finish();
    expect(await Promise.all([second, third, fourth])).toEqual([3, 3, 3]);
  });

  it('reads other keys independently and recovers after a failed read', async () => {
    const { read, started } = store();
    const shared = sharedReads(read);
    const a = shared('a');
    const b = shared('b');
    expect(started.map((s) => s.key)).toEqual(['a', 'b']);
    const againA = shared('a');
    started[0]!.fail();
    await expect(a).rejects.toThrow('store down');
    await tick();
    expect(started.map((s) => s.key)).toEqual(['a', 'b', 'a']);
    started[2]!.finish();
    started[1]!.finish();
    expect(await againA).toBe(0);
    expect(await b).toBe(0);
    // nothing in flight: the next caller reads at once
    shared('a');
    expect(started).toHaveLength(4);
  });
});
