import { afterEach, describe, expect, it, vi } from 'vitest';
import { outboxMailer } from '#lib/adapters/mail';
import { fullPass } from '#lib/alarms/engine/fullPass';
import { listAlarms, type AlarmAnswer } from '#lib/alarms/query';
import type { Mail } from '#lib/notify/mail/types';
import * as alarms from '#lib/alarms/repository/alarms';
import * as deliveries from '#lib/notify/repository/deliveries';
import * as outbox from '#lib/notify/mail/repository';
import * as watchers from '#lib/watchers/repository';
import type { ProviderDevice } from '#lib/devices/types';
import { syncDevices } from '#lib/inventory/sync';
import { createWindow, removeWindow } from '#lib/maintenance/service';
import type { WindowMatchers } from '#lib/maintenance/types';
import { createChannel } from '#lib/notify/channels';
import { notifier } from '#lib/notify/notifier';
import { device, fixed, offlineWatcher, unique } from '../support/fleet';

// Issue 28 item 1, the engine's part: while a maintenance window holds an alarm it opens and
// shows (marked inMaintenance) and nothing is sent for its raise or clear, reminders included.

const soon = () => Date.now() + 20_000;
const mailsTo = async (email: string) => (await outbox.list(email, {})) as Mail[];
const pad = (n: number) => String(n).padStart(2, '0');
/** A window open now: every day, from a few minutes ago (UTC) for an hour. */
const openWindow = async (matchers: WindowMatchers) => {
  const started = new Date(Date.now() - 5 * 60_000);
  return createWindow(
    {
      matchers,
      schedule: { days: ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'], start: `${pad(started.getUTCHours())}:${pad(started.getUTCMinutes())}`, durationMinutes: 60, timeZone: 'UTC' },
      comment: 'patching',
    },
    'ops',
  );
};
/** A region of two offline devices (one of vendor "acme"), a watcher of it mailing an address and an e-mail channel. */
const watchedRegion = async () => {
  const region = unique('R');
  let fleet: ProviderDevice[] = [{ ...device(region, `${region}-A`, 'Room 1', false), vendor: 'acme' }, device(region, `${region}-B`, 'Room 2', false)];
  const sync = (next: ProviderDevice[]) => {
    fleet = next;
    return syncDevices(fixed(() => fleet));
  };
  await sync(fleet);
  const teamMail = `${unique('team')}@example.com`;
  const channel = await createChannel({ name: 'team', type: 'email', emails: [teamMail] });
  const input = offlineWatcher(region, `${unique('ops')}@example.com`, { type: 'offline', channelIds: [channel.id] });
  const id = await watchers.create(input);
  return { region, id, email: input.emails![0]!, teamMail, channel, fleet: () => fleet, sync };
};
const mine = async (region: string): Promise<AlarmAnswer[]> => {
  const answer = await listAlarms({ region });
  return Array.isArray(answer) ? answer : answer.items;
};

describe('maintenance windows hold alarms', () => {
  it('opens and shows the alarms a window holds, marked inMaintenance, and sends nothing for their raise or clear', async () => {
    const { region, email, teamMail, channel, fleet, sync } = await watchedRegion();
    const window = await openWindow({ region });

    const raised = await fullPass({ mailer: outboxMailer(), deadline: soon() });
    expect(raised.notifications.suppressed).toBeGreaterThanOrEqual(1);
    const shown = await mine(region);
    expect(shown).toHaveLength(2);
    for (const alarm of shown) expect(alarm).toMatchObject({ state: 'firing', inMaintenance: [window.id], silencedBy: [] });
    expect(await mailsTo(email)).toEqual([]);
    expect(await mailsTo(teamMail)).toEqual([]);
    expect((await deliveries.log(channel.id, 10)).items).toEqual([expect.objectContaining({ type: 'alarms.raised', status: 'suppressed', attempts: 0 })]);

    // one device comes back inside the window: its clear is not told either
    await sync(fleet().map((d) => (d.devicesn === `${region}-A` ? { ...d, status: { ...d.status, connected: true } } : d)));
    await fullPass({ mailer: outboxMailer(), deadline: soon() });
    expect(await mine(region)).toHaveLength(1);
    expect(await mailsTo(email)).toEqual([]);
    expect((await deliveries.log(channel.id, 10)).items.map((d) => d.status)).toEqual(['suppressed', 'suppressed']);

    await removeWindow(window.id);
    const [left] = await mine(region);
    expect(left).not.toHaveProperty('inMaintenance');
  });

  it('matches a window by the device vendor in the engine, and holds only what it names', async () => {
    const { region, email } = await watchedRegion();
    const window = await openWindow({ vendor: 'acme', region });

    await fullPass({ mailer: outboxMailer(), deadline: soon() });
    const shown = new Map((await mine(region)).map((alarm) => [alarm.devicesn, alarm]));
    expect(shown.get(`${region}-A`)).toMatchObject({ inMaintenance: [window.id] });
    expect(shown.get(`${region}-B`)).not.toHaveProperty('inMaintenance');
    const mails = await mailsTo(email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text).toContain(`${region}-B`);
    expect(mails[0]!.text).not.toContain(`${region}-A`);
  });

  it('reminds no alarm a window holds', async () => {
    const region = unique('R');
    const email = `${unique('ops')}@example.com`;
    const id = await watchers.create(offlineWatcher(region, email, { type: 'offline', repeatIntervalSeconds: 3600 }));
    const longAgo = new Date(Date.now() - 2 * 3600_000).toISOString();
    for (const [sn, room] of [['A', 'R1'], ['B', 'R2']] as const) {
      await alarms.raise({ watcherId: id, devicesn: `${region}-${sn}`, deviceid: sn, severity: 2, region, location: 'L', room, raisedAt: longAgo, state: 'firing', notify: { sendEmail: true, emails: [email] } });
    }
    await openWindow({ region, room: 'R1' });

    expect(await notifier({ mailer: outboxMailer(), deadline: soon() }).run()).toMatchObject({ digests: 1, mailed: 1 });
    const [mail] = await mailsTo(email);
    expect(mail!.text).toContain(`${region}-B`);
    expect(mail!.text).not.toContain(`${region}-A`);
  });
});

describe('a maintenance window closing', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('tells once, in one digest, the alarms raised inside it that still fire when it closes, and not those that cleared inside it', async () => {
    const start = Date.now();
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(start);
    const { region, email, teamMail, channel, fleet, sync } = await watchedRegion();
    const opens = new Date(start + 2 * 60_000);
    const window = await createWindow(
      {
        matchers: { region },
        schedule: { days: ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'], start: `${pad(opens.getUTCHours())}:${pad(opens.getUTCMinutes())}`, durationMinutes: 30, timeZone: 'UTC' },
        comment: 'patching',
      },
      'ops',
    );

    // inside the window: both raised, A clears again; nothing is sent
    vi.setSystemTime(start + 5 * 60_000);
    await fullPass({ mailer: outboxMailer(), deadline: soon() });
    expect((await mine(region)).map((alarm) => alarm.inMaintenance)).toEqual([[window.id], [window.id]]);
    await sync(fleet().map((d) => (d.devicesn === `${region}-A` ? { ...d, status: { ...d.status, connected: true } } : d)));
    await fullPass({ mailer: outboxMailer(), deadline: soon() });
    expect(await mailsTo(email)).toEqual([]);

    // closed: two runs racing, then one more, tell B once
    vi.setSystemTime(start + 40 * 60_000);
    await Promise.all([notifier({ mailer: outboxMailer(), deadline: soon() }).run(), notifier({ mailer: outboxMailer(), deadline: soon() }).run()]);
    await notifier({ mailer: outboxMailer(), deadline: soon() }).run();
    await fullPass({ mailer: outboxMailer(), deadline: soon() });
    for (const to of [email, teamMail]) {
      const mails = await mailsTo(to);
      expect(mails).toHaveLength(1);
      expect(mails[0]!.text).toContain(`${region}-B`);
      expect(mails[0]!.text).not.toContain(`${region}-A`);
    }
    expect((await deliveries.log(channel.id, 10)).items.map((d) => d.status).sort()).toEqual(['delivered', 'suppressed', 'suppressed']);
    const [left] = await mine(region);
    expect(left).not.toHaveProperty('inMaintenance');
  });
});
