import { describe, expect, it } from 'vitest';
import * as watchers from '#lib/watchers/repository';
import { Conflict, Invalid } from '#lib/shared/errors';
import type { WatcherInput } from '#lib/watchers/types';
import { createWatcher, updateWatcher } from '#lib/watchers/write';
import { offlineWatcher, unique } from '../support/fleet';

// The write check of a watcher's parent (docs/guide/rules/alarms.md): the whole chain, and racing PUTs.

const region = unique('inhibition-races');
const mail = `${unique('ops')}@example.com`;
const child = (type: string, parent?: string): WatcherInput =>
  offlineWatcher(region, mail, { type, ...(parent ? { inhibitedBy: { condition: 'watcher', watcherId: parent, over: 'location' } } : {}) });
const parentOf = async (id: string) => {
  const parent = (await watchers.read(id)).record.inhibitedBy;
  return parent?.condition === 'watcher' ? parent.watcherId : undefined;
};

describe('the cycle check follows the whole chain', () => {
  it('refuses the PUT that closes a cycle of 23 watchers', async () => {
    // w[0] inhibited by w[1], ..., w[21] by w[22]: created from the end of the chain
    const ids: string[] = [];
    for (let i = 22; i >= 0; i--) ids.unshift(await createWatcher(child(`c${i}`, ids[0])));
    expect(await parentOf(ids[0]!)).toBe(ids[1]);
    const error = await updateWatcher(ids[22]!, child('c22', ids[0])).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Invalid);
    expect((error as Invalid).details).toEqual([{ field: 'body.inhibitedBy.watcherId', message: expect.stringContaining('(a cycle)') }]);
    expect(await parentOf(ids[22]!)).toBeUndefined();
  }, 60_000);

  it('still accepts a long chain that leads elsewhere, and one ending in a stored cycle not through the watcher', async () => {
    const [x, y] = [await createWatcher(child('x')), await createWatcher(child('y'))];
    await updateWatcher(x, child('x', y));
    await watchers.update(y, child('y', x)); // a cycle stored without the check (as racing PUTs once could)
    const z = await createWatcher(child('z'));
    await expect(updateWatcher(z, child('z', x))).resolves.toMatchObject({ id: z });
  });
});

describe('two PUTs racing to make two watchers parents of each other', () => {
  it('never store a cycle: at most one lands, the other is 400 or 409', async () => {
    for (let round = 0; round < 12; round++) {
      const [a, b] = [await createWatcher(child(`a${round}`)), await createWatcher(child(`b${round}`))];
      const results = await Promise.allSettled([updateWatcher(a, child(`a${round}`, b)), updateWatcher(b, child(`b${round}`, a))]);
      const parents = [await parentOf(a), await parentOf(b)];
      expect(parents, `round ${round}`).not.toEqual([b, a]);
      expect(results.filter((r) => r.status === 'fulfilled').length, `round ${round}`).toBeLessThanOrEqual(1);
      for (const result of results) if (result.status === 'rejected') expect([Invalid, Conflict].some((type) => result.reason instanceof type)).toBe(true);
    }
  }, 120_000);
});
