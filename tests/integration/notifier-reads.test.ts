import { describe, expect, it } from 'vitest';
import { acknowledgeAlarm } from '#lib/alarms/acknowledge';
import * as alarms from '#lib/alarms/repository/alarms';
import * as inhibitions from '#lib/alarms/inhibition/repository';
import * as watchers from '#lib/watchers/repository';
import { createWindow } from '#lib/maintenance/service';
import { MAINTENANCE } from '#lib/maintenance/entities';
import { SILENCES_BY_END } from '#lib/alarms/entities';
import { WATCHERS } from '#lib/watchers/entities';
import { controlledClock, firing, locationFleet, run, tell } from '../support/engine';
import { offlineWatcher, unique } from '../support/fleet';
import { watchingRequests } from '../support/requests';

// One notifier run reads the watchers, the current silences and the maintenance windows once,
// whichever of its collectors (repeats, ack lapses, maintenance releases, inhibitions) needs them
// first (docs/guide/rules/notify.md "A notifier run reads the watchers, the silences and the windows once"); the next run reads them again.

const PARTITIONS = { watchers: WATCHERS, silences: SILENCES_BY_END, windows: MAINTENANCE } as const;

/** The Queries of each of the three partitions the client sends while `work` runs. */
const readsDuring = async (work: () => Promise<unknown>): Promise<Record<keyof typeof PARTITIONS, number>> => {
  const seen = { watchers: 0, silences: 0, windows: 0 };
  // seen before the document client marshals them: plain values
  await watchingRequests((command, input) => {
    if (command !== 'QueryCommand') return;
    const pk = (input.ExpressionAttributeValues as Record<string, unknown> | undefined)?.[':pk'];
    for (const name of Object.keys(PARTITIONS) as (keyof typeof PARTITIONS)[]) if (pk === PARTITIONS[name]) seen[name]++;
  }, work);
  return seen;
};

describe('the reads of one notifier run', () => {
  it('reads watchers, silences and windows once per run with every collector at work, and again in the next run', async () => {
    const { at } = controlledClock();
    const { region, sync } = await locationFleet(10);
    const id = await watchers.create(
      offlineWatcher(region, `${unique('ops')}@example.com`, { type: 'offline', repeatIntervalSeconds: 3600, inhibitedBy: { condition: 'locationOffline', percent: 30 } }),
    );
    await createWindow(
      { matchers: { region: unique('R') }, schedule: { days: ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'], start: '03:00', durationMinutes: 30, timeZone: 'UTC' }, comment: 'patching' },
      'ops',
    );

    // six of ten offline: their alarms fire suppressed by the location's parent episode; one is acknowledged for ten minutes
    at(60_000);
    await sync([0, 1, 2, 3, 4, 5]);
    await run();
    expect(await firing(id)).toHaveLength(6);
    const acked = `${id}:${region}-0`;
    await acknowledgeAlarm(acked, 'ana', undefined, [], new Date(Date.now() + 10 * 60_000).toISOString());

    // two hours on, the location is back (not evaluated yet): a repeat slot, a lapse, the window, the episode to judge
    at(2 * 3600_000);
    await sync([]);
    expect(await readsDuring(tell)).toEqual({ watchers: 1, silences: 1, windows: 1 });
    expect((await alarms.openOf(id)).find((alarm) => alarm.devicesn === `${region}-0`)?.acknowledgement).toBeUndefined();
    expect((await inhibitions.all()).filter((episode) => episode.watcherId === id)).toHaveLength(1);

    // the next run reads them again
    expect(await readsDuring(tell)).toEqual({ watchers: 1, silences: 1, windows: 1 });
  });
});
