import { describe, expect, it } from 'vitest';
import { outboxMailer } from '#lib/adapters/mail';
import * as alarms from '#lib/alarms/repository/alarms';
import { repeats } from '#lib/notify/repository/markers';
import * as watchers from '#lib/watchers/repository';
import { notifier } from '#lib/notify/notifier';
import { repeatSlot } from '#lib/notify/pure/plan';
import { offlineWatcher, unique } from '../support/fleet';
import { migrate } from '../../scripts/migrate';

// Repeat markers written before they held slot starts (ms) held slot indexes: `npm run migrate`
// turns them into the slot's start, which the notifier then honours as it honoured the index.
const HOUR_S = 3600;
const run = () => notifier({ mailer: outboxMailer(), deadline: Date.now() + 20_000 }).run();

/** The migration of this watcher's marker alone (other test files' items are theirs). */
const migrateMarkerOf = (id: string) => migrate((item) => item.type === 'RepeatMarker' && item.watcherId === id);

const watcherWithOldAlarm = async () => {
  const region = unique('R');
  const email = `${unique('ops')}@example.com`;
  const id = await watchers.create(offlineWatcher(region, email, { repeatIntervalSeconds: HOUR_S }));
  const raisedAt = new Date(Date.now() - 2 * HOUR_S * 1000).toISOString();
  await alarms.raise({ watcherId: id, devicesn: `${region}-A`, deviceid: 'A', severity: 2, region, location: 'L', room: 'R1', raisedAt, state: 'firing', notify: { sendEmail: true, emails: [email] } });
  return id;
};

describe('repeat markers holding a slot index (written before slot starts), once migrated', () => {
  it('a marker of the current slot index sends no repeat', async () => {
    const id = await watcherWithOldAlarm();
    await repeats.done(id, repeatSlot(Date.now(), HOUR_S), new Date().toISOString());
    expect((await migrateMarkerOf(id)).repeatSlot).toBe(1);
    expect((await run()).digests).toBe(0);
    expect(await repeats.lastSlot(id)).toBe(repeatSlot(Date.now(), HOUR_S) * HOUR_S * 1000);
  });

  it('a marker of the previous slot index lets this slot repeat, and stores its start', async () => {
    const id = await watcherWithOldAlarm();
    await repeats.done(id, repeatSlot(Date.now(), HOUR_S) - 1, new Date().toISOString());
    expect((await migrateMarkerOf(id)).repeatSlot).toBe(1);
    expect(await repeats.lastSlot(id)).toBe((repeatSlot(Date.now(), HOUR_S) - 1) * HOUR_S * 1000);
    expect((await run()).digests).toBe(1);
    expect(await repeats.lastSlot(id)).toBe(repeatSlot(Date.now(), HOUR_S) * HOUR_S * 1000);
  });
});
