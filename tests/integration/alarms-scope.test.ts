import { describe, expect, it } from 'vitest';
import { fullPass } from '#lib/alarms/engine/fullPass';
import { queuePass } from '#lib/alarms/engine/queuePass';
import { outboxMailer } from '#lib/adapters/mail';
import * as alarms from '#lib/alarms/repository/alarms';
import * as watchers from '#lib/watchers/repository';
import { syncDevices } from '#lib/inventory/sync';
import type { AccessScopeEntry } from '#lib/shared/access';
import type { WatcherInput } from '#lib/watchers/types';
import { createWatcher } from '#lib/watchers/write';
import { fixed, placed as place, unique, watcherInput } from '../support/fleet';

// A watcher created by a scoped principal keeps that scope: every pass of the engine (the full
// pass, the queued watcher pass, the queued device pass) raises its alarms only for devices
// inside it, and clears one whose device left it. Its conditions alone would match devices
// outside (the same room name everywhere), so only the scope keeps them out.

const passOptions = () => ({ mailer: outboxMailer(), deadline: Date.now() + 30_000 });

/** Every disconnected device of any place whose room is `room` (a name only this test uses). */
const offlineIn = (room: string): WatcherInput =>
  watcherInput({
    operations: {
      type: 'device',
      operatorType: 'AND',
      conditions: [
        { element: 'status.connected', operator: '==', value: 'false' },
        { element: 'details.room', operator: '==', value: room },
      ],
    },
  });

const alarmedSerials = async (watcherId: string) => (await alarms.openOf(watcherId)).filter((a) => a.state === 'firing').map((a) => a.devicesn).sort();

/** The queue pass leaves exactly `serials` alarmed for the watcher, and the reconciliation (a full pass) after it agrees. */
const bothPassesAlarm = async (watcherId: string, serials: string[]) => {
  await queuePass(passOptions());
  expect(await alarmedSerials(watcherId)).toEqual(serials);
  await fullPass(passOptions());
  expect(await alarmedSerials(watcherId)).toEqual(serials);
};

/** Two regions, each with a device offline in the same room name; `inside` is the scoped one. */
const twoRegions = () => {
  const inside = unique('IN');
  const outside = unique('OUT');
  const room = unique('Room');
  const fleet = [place(inside, 'London', `${inside}-1`, room, false), place(outside, 'London', `${outside}-1`, room, false)];
  return { inside, outside, room, fleet, scope: [{ region: inside }] as AccessScopeEntry[] };
};

describe('a scoped watcher in the alarm engine', () => {
  it('raises, in the full pass, only for the devices inside its scope', async () => {
    const { inside, outside, room, fleet, scope } = twoRegions();
    await syncDevices(fixed(() => fleet));
    const scoped = await watchers.create(offlineIn(room), undefined, scope);
    const unscoped = await watchers.create(offlineIn(room));

    await fullPass(passOptions());

    expect(await alarmedSerials(scoped)).toEqual([`${inside}-1`]);
    expect(await alarmedSerials(unscoped)).toEqual([`${inside}-1`, `${outside}-1`].sort());
  });

  it('raises, in the queued pass of a new watcher, only inside its scope', async () => {
    const { inside, room, fleet, scope } = twoRegions();
    await syncDevices(fixed(() => fleet));
    await queuePass(passOptions());
    const id = await createWatcher(offlineIn(room), scope);

    await queuePass(passOptions());

    expect(await alarmedSerials(id)).toEqual([`${inside}-1`]);
  });

  it('leaves a device outside its scope alone in the queued device pass, and follows one inside', async () => {
    const { inside, outside, room, scope } = twoRegions();
    let fleet = [place(inside, 'London', `${inside}-1`, room, true), place(outside, 'London', `${outside}-1`, room, true)];
    await syncDevices(fixed(() => fleet));
    const id = await createWatcher(offlineIn(room), scope);
    await queuePass(passOptions());
    expect(await alarmedSerials(id)).toEqual([]);

    fleet = [place(inside, 'London', `${inside}-1`, room, false), place(outside, 'London', `${outside}-1`, room, false)];
    await syncDevices(fixed(() => fleet));
    await bothPassesAlarm(id, [`${inside}-1`]);
  });

  it('clears the alarm of a device that moved out of its scope', async () => {
    const { inside, outside, room, scope } = twoRegions();
    let fleet = [place(inside, 'London', `${inside}-1`, room, false)];
    await syncDevices(fixed(() => fleet));
    const id = await createWatcher(offlineIn(room), scope);
    await queuePass(passOptions());
    expect(await alarmedSerials(id)).toEqual([`${inside}-1`]);

    fleet = [place(outside, 'London', `${inside}-1`, room, false)];
    await syncDevices(fixed(() => fleet));
    await bothPassesAlarm(id, []);
  });

  it('keeps a watcher scoped to one location of a region to that location', async () => {
    const region = unique('R');
    const room = unique('Room');
    const fleet = [place(region, 'Austin', `${region}-1`, room, false), place(region, 'Boston', `${region}-2`, room, false)];
    await syncDevices(fixed(() => fleet));
    const id = await createWatcher(offlineIn(room), [{ region, location: 'Austin' }]);

    await bothPassesAlarm(id, [`${region}-1`]);
  });

  it('keeps its scope when its rule is replaced', async () => {
    const { inside, room, fleet, scope } = twoRegions();
    await syncDevices(fixed(() => fleet));
    const id = await createWatcher(offlineIn(room), scope);

    const replaced = await watchers.update(id, { ...offlineIn(room), severity: 1 });

    expect(replaced.scope).toEqual(scope);
    await fullPass(passOptions());
    expect(await alarmedSerials(id)).toEqual([`${inside}-1`]);
  });
});
