import { describe, expect, it } from 'vitest';
import { outboxMailer } from '#lib/adapters/mail';
import { queuePass } from '#lib/alarms/engine/queuePass';
import type { Mail } from '#lib/alarms/types';
import * as alarms from '#lib/db/alarms';
import * as outbox from '#lib/db/outbox';
import * as watchers from '#lib/db/watchers';
import type { ProviderDevice } from '#lib/devices/types';
import { syncDevices } from '#lib/inventory/sync';
import { notifier } from '#lib/notify/notifier';
import { createWatcher, updateWatcher } from '#lib/watchers/write';
import { device, fixed, offlineWatcher, unique } from '../support/fleet';

// Hostile review of issue 28 (probe28): engine paths the branches' own tests did not reach.

const soon = () => Date.now() + 30_000;
const run = () => queuePass({ mailer: outboxMailer(), deadline: soon() });
const tell = () => notifier({ mailer: outboxMailer(), deadline: soon() }).run();
const mailsTo = async (email: string) => (await outbox.list(email, {})) as Mail[];
const firing = async (watcherId: string) => (await alarms.openOf(watcherId)).filter((alarm) => alarm.state === 'firing');

describe('two watchers made parents of each other by racing PUTs (a cycle)', () => {
  it('the race stores the cycle, and the engine tells both watchers\' alarms instead of suppressing them forever', async () => {
    const region = unique('R');
    let fleet: ProviderDevice[] = Array.from({ length: 4 }, (_, i) => device(region, `${region}-${i}`, `Room ${i}`, true));
    const sync = async (offline: readonly number[]) => {
      fleet = fleet.map((d, i) => ({ ...d, status: { ...d.status, connected: !offline.includes(i) } }));
      await syncDevices(fixed(() => fleet));
    };
    await sync([]);
    await run();
    const [mailA, mailB] = [`${unique('a')}@example.com`, `${unique('b')}@example.com`];
    const a = await createWatcher(offlineWatcher(region, mailA, { type: 'a' }));
    const b = await createWatcher(offlineWatcher(region, mailB, { type: 'b' }));
    // each PUT checks the other's stored parent before either lands: both pass
    await Promise.all([
      updateWatcher(a, offlineWatcher(region, mailA, { type: 'a', inhibitedBy: { condition: 'watcher', watcherId: b, over: 'location' } })),
      updateWatcher(b, offlineWatcher(region, mailB, { type: 'b', inhibitedBy: { condition: 'watcher', watcherId: a, over: 'location' } })),
    ]);
    const stored = await Promise.all([a, b].map(async (id) => (await watchers.read(id)).record.inhibitedBy));
    expect(stored.every((parent) => parent?.condition === 'watcher')).toBe(true);
    await run();

    await sync([0, 1]);
    await run();
    await tell();
    await run();
    for (const id of [a, b]) {
      const open = await firing(id);
      expect(open).toHaveLength(2);
      for (const alarm of open) expect(alarm).not.toHaveProperty('suppressedBy');
    }
    for (const to of [mailA, mailB]) expect(await mailsTo(to)).toHaveLength(1);
  });
});
