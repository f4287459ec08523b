import { describe, expect, it, vi } from 'vitest';
import { fullPass } from '#lib/alarms/engine/fullPass';
import { outboxMailer } from '#lib/adapters/mail';
import type { OpenAlarm } from '#lib/alarms/types';
import type { Mail } from '#lib/notify/mail/types';
import * as alarms from '#lib/alarms/repository/alarms';
import * as channels from '#lib/notify/repository/channels';
import * as deliveries from '#lib/notify/repository/deliveries';
import * as outbox from '#lib/notify/mail/repository';
import * as watchers from '#lib/watchers/repository';
import { syncDevices } from '#lib/inventory/sync';
import type { ProviderDevice } from '#lib/devices/types';
import { HttpError } from '#lib/shared/errors';
import { checkChannelIds } from '#lib/notify/channelIds';
import { createChannel, removeChannel, rotateSecret } from '#lib/notify/channels';
import { acknowledgeAlarm } from '#lib/alarms/acknowledge';
import { createSilence } from '#lib/alarms/silences';
import { noticeFor } from '#lib/notify/pure/notice';
import { notifier } from '#lib/notify/notifier';
import { planDigests } from '#lib/notify/pure/plan';
import type { WatcherInput } from '#lib/watchers/types';
import { device, fixed, offlineWatcher, unique } from '../support/fleet';

const fleet = (region: string, count: number, rooms: number): ProviderDevice[] =>
  Array.from({ length: count }, (_, i) => device(region, `${region}-${String(i).padStart(3, '0')}`, `Room ${i % rooms}`, false));
const provider = (devices: ProviderDevice[]) => fixed(() => devices);
/** An offline watcher of `region` (type "offline": the subjects say it), mailing an address of its own. */
const watcher = (region: string, overrides: Partial<WatcherInput> = {}): WatcherInput =>
  offlineWatcher(region, `${unique('ops')}@example.com`, { type: 'offline', ...overrides });
/** A region of `count` offline devices in `rooms` rooms, synced, and a watcher of it that also notifies an e-mail channel. */
const watchedRegion = async (count: number, rooms: number) => {
  const region = unique('R');
  await syncDevices(provider(fleet(region, count, rooms)));
  const teamMail = `${unique('team')}@example.com`;
  const channel = await createChannel({ name: 'team', type: 'email', emails: [teamMail] });
  const input = watcher(region, { channelIds: [channel.id] });
  await watchers.create(input);
  return { region, teamMail, channel, input };
};
/** A watcher that re-notifies every hour, with alarms on its devices A and B raised two hours ago. */
const repeatingWatcher = async () => {
  const region = unique('R');
  const email = `${unique('ops')}@example.com`;
  const id = await watchers.create(watcher(region, { emails: [email], repeatIntervalSeconds: 3600 }));
  const raise = (sn: string, raisedAt: string) =>
    alarms.raise({ watcherId: id, devicesn: `${region}-${sn}`, deviceid: sn, severity: 2, region, location: 'L', room: 'R1', raisedAt, state: 'firing', notify: { sendEmail: true, emails: [email] } });
  const longAgo = new Date(Date.now() - 2 * 3600_000).toISOString();
  for (const sn of ['A', 'B']) await raise(sn, longAgo);
  return { region, email, id, raise };
};
const mailsTo = async (email: string) => (await outbox.list(email, {})) as Mail[];
const soon = () => Date.now() + 20_000;
const statusOf = async (error: Promise<unknown>) => {
  try {
    await error;
  } catch (e) {
    return e instanceof HttpError ? e.statusCode ?? 400 : 500;
  }
  return 200;
};

describe('digests', () => {
  it('tells a watcher that raised 60 alarms in one run with one mail per target, grouped by room', async () => {
    const { region, teamMail: channelMail, channel, input } = await watchedRegion(60, 3);

    const summary = await fullPass({ mailer: outboxMailer(), deadline: soon() });

    expect(summary).toMatchObject({ raised: 60, mailed: 2, notifications: { digests: 2, delivered: 2 } });
    for (const to of [input.emails![0]!, channelMail]) {
      const mails = await mailsTo(to);
      expect(mails).toHaveLength(1);
      expect(mails[0]!.subject).toBe(`[Major] 60 devices offline in ${region} / London (3 rooms)`);
      expect(mails[0]!.text).toContain('and 10 more');
      expect(mails[0]!.html).toContain(`<h3>${region} / London / Room 0 (20)</h3>`);
    }
    expect((await deliveries.log(channel.id, 10)).items).toEqual([
      { deliveryId: expect.any(String), type: 'alarms.raised', at: expect.any(String), attempts: 1, status: 'delivered' },
    ]);
    expect(await fullPass({ mailer: outboxMailer(), deadline: soon() })).toMatchObject({ raised: 0, mailed: 0, notifications: { digests: 0 } });
  });

  it('stores and sends each digest once when a run crashed after storing digests but before dropping their notices', async () => {
    const region = unique('R');
    const email = `${unique('ops')}@example.com`;
    const at = new Date().toISOString();
    const notices = ['A', 'B', 'C'].map((sn) => {
      const alarm: OpenAlarm = {
        watcherId: `w-${region}`, devicesn: `${region}-${sn}`, deviceid: sn, severity: 1, region, location: 'L', room: 'R1', raisedAt: at, state: 'firing',
        notify: { sendEmail: true, emails: [email] },
      };
      return { alarm, notice: noticeFor('raised', alarm, alarm.notify, at, 'offline')! };
    });
    for (const { alarm, notice } of notices) await alarms.raise(alarm, notice);
    for (const draft of planDigests(notices.map((x) => x.notice))) await deliveries.createIfAbsent(draft, at);

    const resumed = await notifier({ mailer: outboxMailer(), deadline: soon() }).run();

    expect(resumed).toMatchObject({ digests: 0, delivered: 1, mailed: 1 });
    expect((await alarms.pendingNotices()).filter((p) => p.alarm.watcherId === `w-${region}`)).toEqual([]);
    const mails = await mailsTo(email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe(`[Critical] 3 devices offline in ${region} / L / R1`);
    expect(await notifier({ mailer: outboxMailer(), deadline: soon() }).run()).toMatchObject({ digests: 0, delivered: 0 });
  });

  it('mails only recipients within MAIL_ALLOWED_DOMAINS, also those stored before the list was narrowed', async () => {
    const region = unique('R');
    await syncDevices(provider(fleet(region, 2, 1)));
    const inside = `${unique('ops')}@example.com`;
    const outside = `${unique('victim')}@evil.example`;
    await watchers.create(watcher(region, { emails: [inside, outside] })); // stored directly: as if written before the list
    vi.stubEnv('MAIL_ALLOWED_DOMAINS', 'example.com');
    try {
      await fullPass({ mailer: outboxMailer(), deadline: soon() }); // other tests' mail may go out in the same run
    } finally {
      vi.unstubAllEnvs();
    }
    expect(await mailsTo(inside)).toHaveLength(1);
    expect(await mailsTo(outside)).toHaveLength(0);
  });

  it('carries what exceeds the per-run cap to the next run', async () => {
    const region = unique('R');
    const at = new Date().toISOString();
    for (const w of ['1', '2', '3']) {
      const alarm: OpenAlarm = {
        watcherId: `w${w}-${region}`, devicesn: `${region}-A`, deviceid: 'A', severity: 3, region, location: 'L', room: 'R1', raisedAt: at, state: 'firing',
        notify: { sendEmail: true, emails: [`${unique('ops')}@example.com`] },
      };
      await alarms.raise(alarm, noticeFor('raised', alarm, alarm.notify, at, 'offline'));
    }
    expect(await notifier({ mailer: outboxMailer(), deadline: soon(), maxPerRun: 2 }).run()).toMatchObject({ digests: 3, delivered: 2, complete: false });
    expect(await notifier({ mailer: outboxMailer(), deadline: soon(), maxPerRun: 2 }).run()).toMatchObject({ digests: 0, delivered: 1, complete: true });
  });
});

describe('repeat', () => {
  it('re-notifies alarms open longer than the interval as one digest per interval', async () => {
    const { region, email, raise } = await repeatingWatcher();
    await raise('new', new Date().toISOString());

    expect(await notifier({ mailer: outboxMailer(), deadline: soon() }).run()).toMatchObject({ digests: 1, mailed: 1 });
    expect(await notifier({ mailer: outboxMailer(), deadline: soon() }).run()).toMatchObject({ digests: 0, mailed: 0 });
    const mails = await mailsTo(email);
    expect(mails.map((m) => m.subject)).toEqual([`[Major] Still open: 2 devices offline in ${region} / L / R1`]);
    expect(mails[0]!.text).not.toContain(`${region}-new`);
  });
});

describe('silences and acknowledgements', () => {
  it('records the digest of silenced alarms as suppressed in the channel log, and sends nothing', async () => {
    const { region, teamMail, channel, input } = await watchedRegion(2, 1);
    await createSilence({ matchers: { region }, endsAt: new Date(Date.now() + 3600_000).toISOString(), comment: 'maintenance' }, 'ops');

    // other tests' watchers share the store: only this watcher's targets are asserted
    const summary = await fullPass({ mailer: outboxMailer(), deadline: soon() });

    expect(summary.notifications.suppressed).toBeGreaterThanOrEqual(2);
    expect(await mailsTo(teamMail)).toEqual([]);
    expect(await mailsTo(input.emails![0]!)).toEqual([]);
    expect((await deliveries.log(channel.id, 10)).items).toEqual([expect.objectContaining({ type: 'alarms.raised', status: 'suppressed', attempts: 0 })]);
  });

  it('never repeats an acknowledged alarm', async () => {
    const { region, email, id } = await repeatingWatcher();
    await acknowledgeAlarm(`${id}:${region}-A`, 'ops');

    expect(await notifier({ mailer: outboxMailer(), deadline: soon() }).run()).toMatchObject({ digests: 1, mailed: 1 });
    const [mail] = await mailsTo(email);
    expect(mail!.subject).toContain('Still open: 1 device offline');
    expect(mail!.text).toContain(`${region}-B`);
    expect(mail!.text).not.toContain(`${region}-A`);
  });
});

describe('channel rules', () => {
  it('refuses webhooks to private, loopback and metadata addresses, and http, unless local webhooks are allowed', async () => {
    for (const url of ['https://10.0.0.1/x', 'https://169.254.169.254/latest', 'https://127.0.0.1/x', 'http://example.com/x']) {
      expect(await statusOf(createChannel({ name: 'x', type: 'webhook', url }, { allowLocal: false }))).toBe(400);
    }
    const local = await createChannel({ name: 'x', type: 'webhook', url: 'http://127.0.0.1:9/hook' }, { allowLocal: true });
    expect(local.secret).toMatch(/^whsec_/);
  });

  it('shows a webhook secret only when created or rotated', async () => {
    const made = await createChannel({ name: 'hook', type: 'webhook', url: 'http://127.0.0.1:9/hook', format: 'slack' }, { allowLocal: true });
    expect(made).toMatchObject({ type: 'webhook', format: 'slack', secret: expect.any(String) });
    expect(await channels.get(made.id)).not.toHaveProperty('secret');
    expect((await channels.list()).find((c) => c.id === made.id)).not.toHaveProperty('secret');
    const rotated = await rotateSecret(made.id);
    expect(rotated.secret).not.toBe(made.secret);
    expect(await channels.secretOf(made.id)).toBe(rotated.secret);
  });

  it('refuses unknown channel ids on watchers, and deleting a channel a watcher uses', async () => {
    const channel = await createChannel({ name: 'team', type: 'email', emails: ['team@example.com'] });
    expect(await statusOf(checkChannelIds([channel.id, 'nope']))).toBe(400);
    const id = await watchers.create(watcher(unique('R'), { channelIds: [channel.id] }));
    expect(await statusOf(removeChannel(channel.id))).toBe(409);
    await watchers.remove(id);
    expect(await statusOf(removeChannel(channel.id))).toBe(200);
    expect(await statusOf(channels.get(channel.id))).toBe(404);
  });
});
