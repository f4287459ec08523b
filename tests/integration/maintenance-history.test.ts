import { afterEach, describe, expect, it, vi } from 'vitest';
import { outboxMailer } from '#lib/adapters/mail';
import { createWindow, removeWindow, windowHistory } from '#lib/maintenance/service';
import { withDeviceMaintenance, withRoomMaintenance } from '#lib/maintenance/marks';
import type { WindowMatchers } from '#lib/maintenance/types';
import { notifier } from '#lib/notify/notifier';
import { unique } from '../support/fleet';

// Issue 28 item 1: a window's history records each opening when it starts and when it ends, once
// each even when runs race (docs/guide/rules/maintenance.md "A window's openings are recorded in its own history, start and end once each"); devices and rooms show in maintenance while a window
// holds them (docs/guide/rules/maintenance.md "Devices and rooms show in maintenance at read time, the windows named with their end"). The clock is Date's, moved by the test.

const MINUTE = 60_000;
const soon = () => Date.now() + 20_000;
const pad = (n: number) => String(n).padStart(2, '0');
const run = () => notifier({ mailer: outboxMailer(), deadline: soon() }).run();
/** A daily UTC window opening at `opens` for `minutes`. */
const dailyAt = (matchers: WindowMatchers, opens: Date, minutes: number) =>
  createWindow(
    {
      matchers,
      schedule: { days: ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'], start: `${pad(opens.getUTCHours())}:${pad(opens.getUTCMinutes())}`, durationMinutes: minutes, timeZone: 'UTC' },
      comment: 'patching',
    },
    'ops',
  );
const historyOf = async (id: string) => (await windowHistory(id, {})).items.map((event) => [event.event, event.at, event.opening.start, event.opening.end]);
/** A whole minute a little after now, so that openings start on the minute the schedule names. */
const startOfMinute = (ms: number) => Math.floor(ms / MINUTE) * MINUTE;

describe("a maintenance window's history", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('records an opening when it starts and when it ends, once each, when runs race', async () => {
    const start = startOfMinute(Date.now());
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(start);
    const window = await dailyAt({ region: unique('R') }, new Date(start + 2 * MINUTE), 30);
    const opens = new Date(start + 2 * MINUTE).toISOString();
    const closes = new Date(start + 32 * MINUTE).toISOString();
    await run();
    expect(await historyOf(window.id)).toEqual([]);

    vi.setSystemTime(start + 5 * MINUTE);
    await Promise.all([run(), run()]);
    vi.setSystemTime(start + 10 * MINUTE);
    await run();
    expect(await historyOf(window.id)).toEqual([['opened', opens, opens, closes]]);

    vi.setSystemTime(start + 40 * MINUTE);
    await Promise.all([run(), run()]);
    await run();
    expect(await historyOf(window.id)).toEqual([
      ['closed', closes, opens, closes],
      ['opened', opens, opens, closes],
    ]);
    const [closed] = (await windowHistory(window.id, {})).items;
    expect(closed).toMatchObject({ windowId: window.id, recordedAt: new Date(start + 40 * MINUTE).toISOString() });
  });

  it('records both the start and the end of an opening no run saw open, and pages newest first', async () => {
    const start = startOfMinute(Date.now());
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(start);
    const window = await dailyAt({ region: unique('R') }, new Date(start + 2 * MINUTE), 10);
    vi.setSystemTime(start + 20 * MINUTE);
    await run();
    const first = await windowHistory(window.id, { limit: '1' });
    expect(first.items.map((event) => event.event)).toEqual(['closed']);
    expect(first.nextCursor).not.toBeNull();
    const second = await windowHistory(window.id, { limit: '1', cursor: first.nextCursor! });
    expect(second.items.map((event) => [event.event, event.at])).toEqual([['opened', new Date(start + 2 * MINUTE).toISOString()]]);
  });
});

describe('devices and rooms in maintenance', () => {
  it('marks the devices and rooms an open window holds, and leaves the rest as they were', async () => {
    const region = unique('R');
    const place = (room: string) => ({ region, location: 'L', room });
    const devices = [
      { devicesn: `${region}-1`, vendor: 'acme', details: place('R1') },
      { devicesn: `${region}-2`, vendor: 'other', details: place('R2') },
    ];
    expect(await withDeviceMaintenance(devices)).toEqual(devices);

    const started = new Date(Date.now() - 5 * MINUTE);
    const room = await dailyAt({ region, room: 'R1' }, started, 60);
    const vendor = await dailyAt({ region, vendor: 'other' }, started, 60);
    const watcher = await dailyAt({ region, watcherId: 'w1' }, started, 60);
    const [one, two] = await withDeviceMaintenance(devices);
    expect(one).toMatchObject({ inMaintenance: true, maintenance: [{ id: room.id, comment: 'patching', closesAt: room.nextClosing }] });
    expect(two).toMatchObject({ inMaintenance: true, maintenance: [{ id: vendor.id }] });
    const rooms = await withRoomMaintenance([place('R1'), place('R2')]);
    expect(rooms).toEqual([{ ...place('R1'), inMaintenance: true, maintenance: [{ id: room.id, comment: 'patching', closesAt: room.nextClosing }] }, place('R2')]);
    for (const window of [room, vendor, watcher]) await removeWindow(window.id);
  });
});
