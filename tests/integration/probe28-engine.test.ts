import { describe, expect, it } from 'vitest';
import * as alarms from '#lib/alarms/repository/alarms';
import * as watchers from '#lib/watchers/repository';
import { syncDevices } from '#lib/inventory/sync';
import { acknowledgeAlarm } from '#lib/alarms/acknowledge';
import { alarmId } from '#lib/alarms/types';
import type { Weekday } from '#lib/maintenance/pure/schedule';
import { createWindow, removeWindow, replaceWindow } from '#lib/maintenance/service';
import { createChannel } from '#lib/notify/channels';
import { createWatcher, updateWatcher } from '#lib/watchers/write';
import { controlledClock, firing, fleetOf, locationFleet, mailsTo, run, tell } from '../support/engine';
import { device, fixed, offlineWatcher, placed, unique } from '../support/fleet';

// Hostile review of issue 28 (probe28): engine paths the branches' own tests did not reach.


describe('two watchers made parents of each other by racing PUTs (a cycle)', () => {
  it('the cycle stored, the engine tells both watchers\' alarms instead of suppressing them forever', async () => {
    const { region, sync } = await locationFleet(4);
    const [mailA, mailB] = [`${unique('a')}@example.com`, `${unique('b')}@example.com`];
    const a = await createWatcher(offlineWatcher(region, mailA, { type: 'a' }));
    const b = await createWatcher(offlineWatcher(region, mailB, { type: 'b' }));
    // two PUTs racing each check the other's stored parent before either lands, and both pass: the
    // second write is made here without its check, as the racing PUT's check read A before A's write
    await updateWatcher(a, offlineWatcher(region, mailA, { type: 'a', inhibitedBy: { condition: 'watcher', watcherId: b, over: 'location' } }));
    await watchers.update(b, offlineWatcher(region, mailB, { type: 'b', inhibitedBy: { condition: 'watcher', watcherId: a, over: 'location' } }));
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

const pad = (n: number) => String(n).padStart(2, '0');
/** `email` got one mail, which names `told` and not `held`. */
const expectOneMail = async (email: string, told: string, held: string) => {
  const mails = await mailsTo(email);
  expect(mails).toHaveLength(1);
  expect(mails[0]!.text).toContain(told);
  expect(mails[0]!.text).not.toContain(held);
};
/** A window's schedule: every day at `at`'s UTC time, for `minutes`. */
const dailyAt = (at: Date, minutes: number) => ({ days: ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'] as Weekday[], start: `${pad(at.getUTCHours())}:${pad(at.getUTCMinutes())}`, durationMinutes: minutes, timeZone: 'UTC' });
const HOUR = 3_600_000;
/** A daily maintenance window of `matchers`, opening at `opens`'s time, for `minutes`. */
const dailyWindow = (matchers: Parameters<typeof createWindow>[0]['matchers'], opens: Date, minutes: number, comment: string) =>
  createWindow({ matchers, schedule: dailyAt(opens, minutes), comment }, 'ops');

/**
 * Ten online devices of one location under a controlled clock, and a watcher mailing `email` whose alarms a parent
 * (30 % of the location offline) suppresses. With `team`, the alarms also go to a channel mailing `teamMail`; with
 * `window`, a daily window of the region opens `opensIn` ms after the start, for `minutes`.
 */
const suppressedByParent = async (options: { team?: boolean; window?: { opensIn: number; minutes: number; comment: string } } = {}) => {
  const { start, at } = controlledClock();
  const { region, sync } = await locationFleet(10);
  const teamMail = `${unique('team')}@example.com`;
  const team = options.team ? { channelIds: [(await createChannel({ name: 'team', type: 'email', emails: [teamMail] })).id] } : {};
  const email = `${unique('ops')}@example.com`;
  const id = await watchers.create(offlineWatcher(region, email, { type: 'offline', ...team, inhibitedBy: { condition: 'locationOffline', percent: 30 } }));
  const { window } = options;
  if (window) await dailyWindow({ region }, new Date(start + window.opensIn), window.minutes, window.comment);
  return { start, at, region, sync, email, teamMail, id };
};

/**
 * Devices A (Room 1, London) and B (Room 2, in `locationOfB`) of a new region, online; a watcher mailing `email` for each
 * offline one; a daily window of the region that opened five minutes ago, for two hours.
 */
const insideOpenWindow = async (locationOfB = 'London') => {
  const region = unique('R');
  const sync = await fleetOf([device(region, `${region}-A`, 'Room 1', true), placed(region, locationOfB, `${region}-B`, 'Room 2', true)]);
  const email = `${unique('ops')}@example.com`;
  await watchers.create(offlineWatcher(region, email, { type: 'offline' }));
  const started = new Date(Date.now() - 5 * 60_000);
  const window = await dailyWindow({ region }, started, 120, 'patching');
  return { region, sync, email, started, window };
};


describe('an alarm suppressed by a parent, whose parent clears inside a maintenance window', () => {
  it('raised before the window opened, is told once when the window closes (the release inside it was held)', async () => {
    // a window of the region opening in an hour, every day, for two hours
    const { at, region, sync, email, teamMail, id } = await suppressedByParent({ team: true, window: { opensIn: HOUR, minutes: 120, comment: 'patching' } });

    // six of ten go offline before the window: suppressed, the parent digest told
    await sync([0, 1, 2, 3, 4, 5]);
    await run();
    await tell();
    expect((await firing(id)).every((alarm) => alarm.suppressedBy !== undefined)).toBe(true);
    expect(await mailsTo(email)).toHaveLength(1);

    // inside the window four come back: the parent clears, its release is held by the window
    at(HOUR + 30 * 60_000);
    await sync([4, 5]);
    await run();
    await tell();
    await run();
    await tell();
    expect(await mailsTo(email)).toHaveLength(1);

    // the window closes with the two still firing: they are told, once
    at(4 * HOUR);
    await run();
    await tell();
    await tell();
    const mails = await mailsTo(email);
    expect(mails).toHaveLength(2);
    expect(mails.find((mail) => !mail.subject.includes('Suppressed'))?.text).toContain(`${region}-4`);
    expect(await mailsTo(teamMail)).toHaveLength(2);
  });
});

describe('an alarm raised suppressed inside a maintenance window, whose parent clears inside it', () => {
  it('is told once, when the window closes', async () => {
    const { at, region, sync, email, id } = await suppressedByParent({ window: { opensIn: 10 * 60_000, minutes: 120, comment: 'patching' } });
    at(20 * 60_000);
    await sync([0, 1, 2, 3, 4, 5]);
    await run();
    await tell();
    expect((await firing(id)).every((alarm) => alarm.suppressedBy !== undefined)).toBe(true);
    at(HOUR);
    await sync([5]);
    await run();
    await tell();
    await run();
    await tell();
    at(3 * HOUR);
    await Promise.all([tell(), tell()]);
    await run();
    await tell();
    const released = (await mailsTo(email)).filter((mail) => !mail.subject.includes('Suppressed'));
    expect(released).toHaveLength(1);
    expect(released[0]!.text).toContain(`${region}-5`);
  });
});

describe('an acknowledgement lapsing on an alarm a parent suppresses', () => {
  it('reminds nobody (a suppressed alarm is never told), and the release tells it once', async () => {
    const { at, region, sync, email, id } = await suppressedByParent();
    await sync([0, 1, 2, 3, 4, 5]);
    await run();
    await tell();
    const open = await firing(id);
    expect(open.every((alarm) => alarm.suppressedBy !== undefined)).toBe(true);
    expect(await mailsTo(email)).toHaveLength(1); // the parent digest
    const target = open.find((alarm) => alarm.devicesn === `${region}-5`)!;
    await acknowledgeAlarm(alarmId(target), 'ops', 'looking', [], new Date(Date.now() + HOUR).toISOString());

    // the acknowledgement lapses while the parent still holds: no reminder
    at(2 * HOUR);
    await run();
    await tell();
    expect(await mailsTo(email)).toHaveLength(1);

    // the parent clears with the device still offline: told once
    at(3 * HOUR);
    await sync([5]);
    await run();
    await tell();
    const mails = await mailsTo(email);
    expect(mails).toHaveLength(2);
    expect(mails[1]!.text).toContain(`${region}-5`);
  });
});

describe('a maintenance window deleted while open (maintenance ended early)', () => {
  it('tells the alarms it held that still fire once, and nothing cleared inside it', async () => {
    const { region, sync, email, window } = await insideOpenWindow();
    await sync([`${region}-A`, `${region}-B`]);
    await run();
    await sync([`${region}-A`]);
    await run();
    await tell();
    expect(await mailsTo(email)).toEqual([]);

    // two deletes racing (or a retried one): one wins, the release is stored once
    const outcomes = await Promise.allSettled([removeWindow(window.id), removeWindow(window.id)]);
    expect(outcomes.filter((o) => o.status === 'fulfilled').length).toBeGreaterThanOrEqual(1);
    await run();
    await Promise.all([tell(), tell()]);
    await run();
    await expectOneMail(email, `${region}-A`, `${region}-B`);
  });
});

describe('a parent problem inside a maintenance window', () => {
  it('sends no parent digest while the window holds the alarms; it tells it once after, if the parent still holds', async () => {
    const { at, sync, email, id } = await suppressedByParent({ window: { opensIn: -5 * 60_000, minutes: 60, comment: 'network work' } });
    await sync([0, 1, 2, 3, 4, 5]);
    await run();
    await tell();
    at(30 * 60_000);
    await run();
    await tell();
    expect((await firing(id)).every((alarm) => alarm.suppressedBy !== undefined)).toBe(true);
    expect(await mailsTo(email)).toEqual([]);

    // the window closes with the location still down: the parent problem is told, once
    at(2 * HOUR);
    await run();
    await Promise.all([tell(), tell()]);
    await tell();
    const mails = await mailsTo(email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toContain('Suppressed: 6 devices');
  });
});

describe('a maintenance window replaced while open', () => {
  it('tells at once what the old opening held and the new window no longer holds; what it still holds waits for its close', async () => {
    const { region, sync, email, started, window } = await insideOpenWindow('Paris');
    const schedule = dailyAt(started, 120);
    await sync([`${region}-A`, `${region}-B`]);
    await run();
    await tell();
    expect(await mailsTo(email)).toEqual([]);

    // narrowed to London while open: Paris's alarm is no longer held, and is told once; London's stays held
    await replaceWindow(window.id, { matchers: { region, location: 'London' }, schedule: { ...schedule, days: [...schedule.days] }, comment: 'patching London' });
    await run();
    await Promise.all([tell(), tell()]);
    await expectOneMail(email, `${region}-B`, `${region}-A`);

    // moved to open later: it no longer holds London's alarm, told once
    const later = new Date(Date.now() + 3 * HOUR);
    await replaceWindow(window.id, { matchers: { region, location: 'London' }, schedule: { ...schedule, days: [...schedule.days], start: `${pad(later.getUTCHours())}:${pad(later.getUTCMinutes())}` }, comment: 'later' });
    await run();
    await Promise.all([tell(), tell()]);
    await tell();
    const after = await mailsTo(email);
    expect(after).toHaveLength(2);
    expect(after.find((mail) => mail.text.includes(`${region}-A`))).toBeDefined();
  });
});

describe('a maintenance window matching a vendor', () => {
  it('reminds no alarm of a device of that vendor while it is open', async () => {
    const region = unique('R');
    const vendor = unique('acme');
    await syncDevices(fixed(() => [{ ...device(region, `${region}-A`, 'R1', false), vendor }, device(region, `${region}-B`, 'R2', false)]));
    const email = `${unique('ops')}@example.com`;
    const id = await watchers.create(offlineWatcher(region, email, { type: 'offline', repeatIntervalSeconds: 3600 }));
    const longAgo = new Date(Date.now() - 2 * HOUR).toISOString();
    for (const [sn, room] of [['A', 'R1'], ['B', 'R2']] as const) {
      await alarms.raise({ watcherId: id, devicesn: `${region}-${sn}`, deviceid: `id-${region}-${sn}`, severity: 2, region, location: 'London', room, raisedAt: longAgo, state: 'firing', notify: { sendEmail: true, emails: [email] } });
    }
    const started = new Date(Date.now() - 5 * 60_000);
    await dailyWindow({ vendor }, started, 60, 'firmware');
    await tell();
    await expectOneMail(email, `${region}-B`, `${region}-A`);
  });
});

describe('an acknowledgement lapsing inside a maintenance window', () => {
  it('of an alarm raised and told before the window: its reminder, held by the window, is told once when the window closes', async () => {
    const { start, at } = controlledClock();
    const region = unique('R');
    await syncDevices(fixed(() => [device(region, `${region}-A`, 'R1', true)]));
    await run();
    const email = `${unique('ops')}@example.com`;
    const id = await watchers.create(offlineWatcher(region, email, { type: 'offline' }));
    await syncDevices(fixed(() => [device(region, `${region}-A`, 'R1', false)]));
    await run();
    await tell();
    expect(await mailsTo(email)).toHaveLength(1); // the raise, told
    const [alarm] = await firing(id);
    await acknowledgeAlarm(alarmId(alarm!), 'ops', 'on it', [], new Date(start + 90 * 60_000).toISOString());
    const opens = new Date(start + HOUR);
    await dailyWindow({ region }, opens, 60, 'patching');
    // the acknowledgement lapses inside the window: nothing sent then
    at(100 * 60_000);
    await run();
    await tell();
    expect(await mailsTo(email)).toHaveLength(1);
    // the window closes with the alarm still firing and unacknowledged: told once
    at(3 * HOUR);
    await run();
    await Promise.all([tell(), tell()]);
    await tell();
    expect(await mailsTo(email)).toHaveLength(2);
  });
});
