import { describe, expect, it } from 'vitest';
import { viewOf } from '#lib/alarms/pure/view';
import { queryHistory } from '#lib/alarms/history';
import { createChannel } from '#lib/notify/channels';
import * as deliveries from '#lib/notify/repository/deliveries';
import type { WatcherInput } from '#lib/watchers/types';
import { createWatcher } from '#lib/watchers/write';
import { controlledClock, firing, locationFleet, mailsTo, run, tell } from '../support/engine';
import { offlineWatcher, unique } from '../support/fleet';

// Flapping (docs/guide/rules/alarms.md "A flapping device keeps one alarm open"), time driven by a controlled clock.
const MINUTE = 60_000;
const CYCLES = 8;
/** Down at the start of each 75 s, back 30 s later: eight times in ten minutes. */
const CYCLE_MS = 75_000;
/** Thirty-odd engine and notifier runs: more than the default test time on a shared machine (no timing is asserted). */
const SLOW = 240_000;

/** A device that goes down and comes back eight times in ten minutes, watched by a watcher mailing `ops` and an e-mail channel. */
const flappingDevice = async (flapping: WatcherInput['flapping']) => {
  const clock = controlledClock();
  const { region, sync } = await locationFleet(1);
  const [ops, team] = [`${unique('ops')}@example.com`, `${unique('team')}@example.com`];
  const channel = (await createChannel({ name: unique('team'), type: 'email', emails: [team] })).id;
  const id = await createWatcher(offlineWatcher(region, ops, { channelIds: [channel], ...(flapping === undefined ? {} : { flapping }) }));
  await run();
  for (let cycle = 0; cycle < CYCLES; cycle++) {
    clock.at(cycle * CYCLE_MS + 1000);
    await sync([0]);
    await run();
    await tell();
    clock.at(cycle * CYCLE_MS + 31_000);
    await sync([]);
    await run();
    await tell();
  }
  return { ...clock, id, region, sync, ops, team, channel };
};

describe('a device down and back eight times in ten minutes', () => {
  it('with flapping on by default: at most four notifications per channel (raise, clear, raise, one flapping notice)', async () => {
    const s = await flappingDevice(undefined);
    const opsMails = await mailsTo(s.ops);
    const teamMails = await mailsTo(s.team);
    expect(opsMails).toHaveLength(4);
    expect(teamMails).toHaveLength(4);
    expect(opsMails.filter((mail) => mail.subject.includes('Flapping'))).toHaveLength(1);
    const log = await deliveries.log(s.channel, 20);
    expect(log.items.map((d) => d.type).sort()).toEqual(['alarms.cleared', 'alarms.flapping', 'alarms.raised', 'alarms.raised']);
    // the alarm stays open, marked flapping
    const [alarm] = await firing(s.id);
    expect(viewOf(alarm!)).toMatchObject({ flapping: true });

    // it clears only after quietMinutes (10) without a failure: the last came back at 9 min 16 s
    const lastBack = (CYCLES - 1) * CYCLE_MS + 31_000;
    s.at(lastBack + 9 * MINUTE);
    await run();
    await tell();
    expect(await firing(s.id)).toHaveLength(1);
    s.at(lastBack + 10 * MINUTE + 1000);
    await run();
    await tell();
    expect(await firing(s.id)).toHaveLength(0);
    const cleared = await mailsTo(s.ops);
    expect(cleared).toHaveLength(5);
    expect(cleared.filter((mail) => mail.subject.includes('Cleared'))).toHaveLength(2);
    const history = await queryHistory({ watcherId: s.id, region: s.region });
    expect(history.items[0]).toHaveProperty('flappingSince');
  }, SLOW);

  it('with flapping: false: every change is told, sixteen notifications per channel', async () => {
    const s = await flappingDevice(false);
    expect(await mailsTo(s.ops)).toHaveLength(2 * CYCLES);
    expect(await mailsTo(s.team)).toHaveLength(2 * CYCLES);
    expect(await firing(s.id)).toHaveLength(0);
  }, SLOW);

  it('a failure while flapping starts the quiet time over', async () => {
    const s = await flappingDevice({ quietMinutes: 5 });
    const lastBack = (CYCLES - 1) * CYCLE_MS + 31_000;
    expect(await mailsTo(s.ops)).toHaveLength(4);
    // down again four minutes after, back a minute later: the five quiet minutes count from then
    s.at(lastBack + 4 * MINUTE);
    const { sync } = s;
    await sync([0]);
    await run();
    s.at(lastBack + 5 * MINUTE);
    await sync([]);
    await run();
    s.at(lastBack + 6 * MINUTE);
    await run();
    expect(await firing(s.id)).toHaveLength(1);
    s.at(lastBack + 10 * MINUTE + 1000);
    await run();
    await tell();
    expect(await firing(s.id)).toHaveLength(0);
    // no notice for the flaps while held open: the four, then the one clear
    expect(await mailsTo(s.ops)).toHaveLength(5);
  }, SLOW);
});
