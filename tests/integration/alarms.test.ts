import { describe, expect, it, vi } from 'vitest';
import { fullPass } from '#lib/alarms/engine/fullPass';
import { runEvaluation } from '#lib/alarms/engine/run';
import { outboxMailer } from '#lib/adapters/mail';
import type { Mailer } from '#lib/notify/mail/types';
import type { Mail } from '#lib/notify/mail/types';
import * as alarms from '#lib/alarms/repository/alarms';
import type { AlarmView } from '#lib/alarms/repository/alarms';
import { devices } from '#lib/devices/repository/devices';
import * as outbox from '#lib/notify/mail/repository';
import * as rooms from '#lib/rollups/repository/rooms';
import { recomputeRoom } from '#lib/rollups/rooms';
import * as watchers from '#lib/watchers/repository';
import { roomStatusCount } from '#lib/devices/stats';
import { syncDevices } from '#lib/inventory/sync';
import { device, fixed, offlineWatcher, unique } from '../support/fleet';

const evaluate = (mailer: Mailer = outboxMailer()) => fullPass({ mailer, deadline: Date.now() + 30_000 });
const mailsTo = async (email: string) => (await outbox.list(email, {})) as Mail[];
const statusIn = async (region: string) => roomStatusCount(await rooms.inPlace({ region }));

describe('alarm engine against the store', () => {
  it('follows a device offline and back: alarm, room status, one raised and one cleared mail', async () => {
    const region = unique('R');
    const email = `${unique('ops')}@example.com`;
    let connected = true;
    const provider = fixed(() => [device(region, `${region}-1`, 'A', connected), device(region, `${region}-2`, 'B', true)]);
    await syncDevices(provider);
    const watcherId = await watchers.create(offlineWatcher(region, email));

    connected = false;
    await syncDevices(provider);
    const raised = await evaluate();
    expect(raised).toMatchObject({ raised: 1, cleared: 0, mailed: 1, complete: true });
    expect(await alarms.list({ region }, {})).toEqual([
      expect.objectContaining({ id: `${watcherId}:${region}-1`, watcherId, devicesn: `${region}-1`, severity: 2, room: 'A' }),
    ]);
    expect(await statusIn(region)).toEqual({ TotalRooms: 2, CriticalStatus: 0, MajorStatus: 1, MinorStatus: 0, InfoStatus: 0, OKStatus: 1 });
    expect((await devices.get(`${region}-1`)).alarmSeverity).toBe(2);

    connected = true;
    await syncDevices(provider);
    const cleared = await evaluate();
    expect(cleared).toMatchObject({ raised: 0, cleared: 1, mailed: 1 });
    expect(await alarms.list({ region }, {})).toEqual([]);
    expect(await statusIn(region)).toMatchObject({ TotalRooms: 2, OKStatus: 2 });
    expect((await devices.get(`${region}-1`)).alarmSeverity).toBeUndefined();
    const mails = await mailsTo(email);
    expect(mails.map((m) => m.subject).sort()).toEqual([`[Major] 1 device t in ${region} / London / A`, `[Major] Cleared: 1 device t in ${region} / London / A`]);
  });

  it('changes nothing when evaluated twice in a row', async () => {
    const region = unique('R');
    await syncDevices(fixed(() => [device(region, `${region}-1`, 'A', false)]));
    await watchers.create(offlineWatcher(region, `${unique('ops')}@example.com`));
    await evaluate();
    const second = await evaluate();
    expect(second).toMatchObject({ raised: 0, cleared: 0, updated: 0, mailed: 0 });
    expect(await alarms.list({ region }, {})).toHaveLength(1);
  });

  it('clears the alarms of a deactivated watcher and of a deleted one', async () => {
    const region = unique('R');
    await syncDevices(fixed(() => [device(region, `${region}-1`, 'A', false)]));
    const kept = await watchers.create(offlineWatcher(region, `${unique('a')}@example.com`, { severity: 1 }));
    const gone = await watchers.create(offlineWatcher(region, `${unique('b')}@example.com`, { severity: 3 }));
    await evaluate();
    expect(await statusIn(region)).toMatchObject({ CriticalStatus: 1 });

    await watchers.setActive(kept, false);
    await evaluate();
    expect(((await alarms.list({ region }, {})) as AlarmView[]).map((a) => a.watcherId)).toEqual([gone]);
    expect(await statusIn(region)).toMatchObject({ MinorStatus: 1, CriticalStatus: 0 });

    await watchers.remove(gone);
    await evaluate();
    expect(await alarms.list({ region }, {})).toEqual([]);
    expect(await statusIn(region)).toMatchObject({ OKStatus: 1 });
  });

  it('clears the alarm of a device that vanished from the inventory', async () => {
    const region = unique('R');
    const email = `${unique('ops')}@example.com`;
    let fleet = [device(region, `${region}-1`, 'A', false), device(region, `${region}-2`, 'A', true)];
    const provider = fixed(() => fleet);
    await syncDevices(provider);
    await watchers.create(offlineWatcher(region, email));
    await evaluate();
    fleet = fleet.slice(1);
    await syncDevices(provider);
    expect(await evaluate()).toMatchObject({ cleared: 1 });
    expect((await mailsTo(email)).map((m) => m.text)).toContainEqual(expect.stringContaining('(device vanished)'));
  });

  it('keeps a mail due when delivery fails, and delivers it exactly once on a later run', async () => {
    vi.stubEnv('NOTIFY_RETRY_BASE_SECONDS', '0.05');
    const region = unique('R');
    const email = `${unique('ops')}@example.com`;
    await syncDevices(fixed(() => [device(region, `${region}-1`, 'A', false)]));
    await watchers.create(offlineWatcher(region, email));
    const failing: Mailer = { kind: 'outbox', send: async () => Promise.reject(new Error('mail server down')) };

    // other files share the table and may have deliveries due at the same time: count this mail by its address
    const failed = await evaluate(failing);
    expect(failed).toMatchObject({ raised: 1, mailed: 0 });
    expect(failed.notifications.retrying).toBeGreaterThanOrEqual(1);
    expect(await mailsTo(email)).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(await evaluate()).toMatchObject({ raised: 0 });
    expect(await mailsTo(email)).toHaveLength(1);
    await evaluate();
    expect(await mailsTo(email)).toHaveLength(1);
    vi.unstubAllEnvs();
  });

  it('never stores the same mail twice, even when a crash makes a run deliver it again', async () => {
    const mail: Mail = { id: unique('mail'), to: ['dup@example.com'], subject: 's', text: 't' };
    const mailer = outboxMailer();
    expect(await mailer.send(mail)).toBe(true);
    expect(await mailer.send(mail)).toBe(false);
    expect((await mailsTo('dup@example.com')).filter((m) => m.id === mail.id)).toHaveLength(1);
  });

  it('stops cleanly at the deadline, and the next run finishes the work', async () => {
    const region = unique('R');
    await syncDevices(fixed(() => [device(region, `${region}-1`, 'A', false), device(region, `${region}-2`, 'B', false)]));
    await watchers.create(offlineWatcher(region, `${unique('ops')}@example.com`));
    const late = await fullPass({ mailer: outboxMailer(), deadline: Date.now() - 1 });
    expect(late).toMatchObject({ raised: 0, complete: false });
    expect(await evaluate()).toMatchObject({ raised: 2, complete: true });
    expect(await statusIn(region)).toMatchObject({ MajorStatus: 2 });
  });

  it('re-asserts a device severity that a concurrent sync wrote back', async () => {
    const region = unique('R');
    const fleet = [device(region, `${region}-1`, 'A', false)];
    await syncDevices(fixed(() => fleet));
    await watchers.create(offlineWatcher(region, `${unique('ops')}@example.com`));
    await evaluate();
    await devices.put(fleet[0]!); // a sync batch that read the device before the alarm: no severity
    await recomputeRoom(fleet[0]!.details);
    expect(await statusIn(region)).toMatchObject({ OKStatus: 1 });
    await evaluate();
    expect(await statusIn(region)).toMatchObject({ MajorStatus: 1 });
  });

  it('lists open alarms newest first, filtered, one page at a time', async () => {
    const region = unique('R');
    await syncDevices(fixed(() => [1, 2, 3].map((i) => device(region, `${region}-${i}`, `Room ${i}`, false))));
    const watcherId = await watchers.create(offlineWatcher(region, `${unique('ops')}@example.com`));
    await evaluate();
    const all = (await alarms.list({ watcherId }, {})) as { raisedAt: string }[];
    expect(all).toHaveLength(3);
    const first = await alarms.list({ watcherId }, { limit: 2 });
    expect(first).toMatchObject({ items: [expect.anything(), expect.anything()], nextCursor: expect.any(String) });
    const { nextCursor } = first as { nextCursor: string };
    expect(await alarms.list({ watcherId }, { limit: 2, cursor: nextCursor })).toMatchObject({ items: [all[2]], nextCursor: null });
    expect(await alarms.list({ watcherId, room: 'Room 2' }, {})).toEqual([expect.objectContaining({ room: 'Room 2' })]);
    expect(await alarms.list({ watcherId, severity: 1 }, {})).toEqual([]);
  });

  it('runs one evaluation at a time: a forced run while another holds the lease is refused', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const region = unique('R');
    await syncDevices(fixed(() => [device(region, `${region}-1`, 'A', false)]));
    await watchers.create(offlineWatcher(region, `${unique('ops')}@example.com`));
    let reached!: () => void;
    const mailing = new Promise<void>((resolve) => (reached = resolve));
    const slow: Mailer = { kind: 'outbox', send: async (mail) => (reached(), await gate, outboxMailer().send(mail)) };
    const first = runEvaluation({ mailer: slow, mode: 'forced' });
    // the first run holds the lease while it mails
    await mailing;
    expect(await runEvaluation({ mailer: outboxMailer(), mode: 'forced' })).toEqual({ ran: false, reason: 'busy' });
    release();
    expect(await first).toMatchObject({ ran: true });
  });

  it('skips a scheduled run until intervalDeviceWatchers has passed', async () => {
    await runEvaluation({ mailer: outboxMailer(), mode: 'forced' });
    expect(await runEvaluation({ mailer: outboxMailer(), mode: 'scheduled', tickSeconds: 60 })).toEqual({ ran: false, reason: 'not due' });
  });
});
