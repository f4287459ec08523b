import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { outboxMailer } from '#lib/adapters/mail';
import { fullPass } from '#lib/alarms/engine/fullPass';
import type { Mail } from '#lib/notify/mail/types';
import * as deliveries from '#lib/notify/repository/deliveries';
import * as outbox from '#lib/notify/mail/repository';
import * as reportStore from '#lib/reports/repository';
import * as watchers from '#lib/watchers/repository';
import type { ProviderDevice } from '#lib/devices/types';
import { syncDevices } from '#lib/inventory/sync';
import { logger } from '#lib/shared/log';
import { createChannel } from '#lib/notify/channels';
import { signatureOf } from '#lib/notify/pure/signature';
import type { ReportPayload } from '#lib/reports/pure/render';
import { CLAIM_LEASE_MS, runReports } from '#lib/reports/run';
import { createSchedule } from '#lib/reports/service';
import { device, fixed, offlineWatcher, unique } from '../support/fleet';
import { API_KEY_PERMISSIONS } from '#lib/shared/access';

/** An unscoped caller allowed to name any channel (the API key's permissions). */
const OPS = { kind: 'user', username: 'ops', scope: [], permissions: API_KEY_PERMISSIONS };

// Issue 28 items 5 and 6: a scheduled report is made once per schedule and period, even when two
// runs race, and each of its sends is a delivery in the channel's log. The clock is the run's `now`.

const received: { headers: IncomingHttpHeaders; body: string }[] = [];
let server: Server;
let hookUrl: string;
beforeAll(async () => {
  vi.stubEnv('ALLOW_LOCAL_WEBHOOKS', 'true');
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  hookUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
});
afterAll(() => {
  vi.unstubAllEnvs();
  server.closeAllConnections();
  server.close();
});

const MINUTE = 60_000;
const WEEK = 7 * 24 * 60 * MINUTE;
const soon = () => Date.now() + 60_000;
const run = (now: number) => runReports({ mailer: outboxMailer(), deadline: soon(), now });
const mailsTo = async (email: string) => (await outbox.list(email, {})) as Mail[];
const payloadsOf = (scheduleId: string) =>
  received.map((r) => ({ ...r, payload: JSON.parse(r.body) as ReportPayload })).filter((r) => r.payload.type === 'report' && r.payload.report.scheduleId === scheduleId);

/** A region with a device that was offline for a while (one cleared alarm of an "offline" watcher), an e-mail and a webhook channel. */
const reportedRegion = async () => {
  const region = unique('RPT');
  const fleet = (connected: boolean): ProviderDevice[] => [device(region, `${region}-A`, 'Room <1>', connected), device(region, `${region}-B`, 'Room 2', true)];
  await syncDevices(fixed(() => fleet(false)));
  await watchers.create(offlineWatcher(region, `${unique('ops')}@example.com`, { type: 'offline' }));
  await fullPass({ mailer: outboxMailer(), deadline: soon() });
  await syncDevices(fixed(() => fleet(true)));
  await fullPass({ mailer: outboxMailer(), deadline: soon() });
  const email = `${unique('manager')}@example.com`;
  const mail = await createChannel({ name: 'managers', type: 'email', emails: [email] });
  const hook = await createChannel({ name: 'hook', type: 'webhook', url: hookUrl }, { allowLocal: true });
  return { region, email, mail, hook };
};
const logOf = async (channelId: string) => (await deliveries.log(channelId, 50)).items.filter((d) => d.type === 'report');

describe('scheduled fleet reports', () => {
  it('makes a weekly report once per period: a mail with text and HTML parts and a signed JSON payload, each in its channel\'s delivery log', async () => {
    const { region, email, mail, hook } = await reportedRegion();
    const schedule = await createSchedule(
      { name: 'Weekly rooms', period: 'weekly', weekday: 'MO', time: '08:00', timeZone: 'Europe/Berlin', channelIds: [mail.id, hook.id], scope: [{ region }] },
      OPS,
    );
    const end = Date.parse(schedule.nextReportAt!);

    expect((await run(end - MINUTE)).made).toBe(0); // the period under way is not reported
    expect(await logOf(mail.id)).toEqual([]);

    await run(end + MINUTE);
    expect(await logOf(mail.id)).toEqual([expect.objectContaining({ type: 'report', status: 'delivered', attempts: 1 })]);
    expect(await logOf(hook.id)).toEqual([expect.objectContaining({ type: 'report', status: 'delivered', attempts: 1 })]);
    const [sent] = await mailsTo(email);
    expect(sent!.subject).toMatch(/^\[Report\] Weekly rooms: weekly fleet report, /);
    expect(sent!.text).toContain(`${region} / London / Room <1>: `);
    expect(sent!.html).toContain(`${region} / London / Room &lt;1&gt;`);
    const [posted] = payloadsOf(schedule.id);
    expect(posted!.payload.report).toMatchObject({ scope: region, period: 'weekly', to: new Date(end).toISOString() });
    expect(Math.abs(end - Date.parse(posted!.payload.report.from) - WEEK)).toBeLessThanOrEqual(60 * MINUTE); // 167 h to 169 h across DST
    expect(posted!.payload.report.alarms.byKind).toEqual([expect.objectContaining({ kind: 'offline', count: 1 })]);
    expect(posted!.payload.report.longestOutages).toEqual([expect.objectContaining({ devicesn: `${region}-A`, room: 'Room <1>' })]);
    expect(posted!.payload.report.availability.rooms).toBe(2);
    const timestamp = Number(posted!.headers['x-signature-timestamp']);
    expect(posted!.headers['x-signature-256']).toBe(signatureOf(hook.secret!, timestamp, posted!.body));

    // later runs in the same period make nothing more; the next period makes the next report
    await run(end + 20 * MINUTE);
    expect(await logOf(mail.id)).toHaveLength(1);
    expect(await mailsTo(email)).toHaveLength(1);
    await run(end + WEEK + MINUTE);
    expect(await logOf(mail.id)).toHaveLength(2);
    expect(payloadsOf(schedule.id)).toHaveLength(2);
  });

  it('makes one report and one delivery per channel when two runs race for the same period', async () => {
    const { region, email, mail, hook } = await reportedRegion();
    const schedule = await createSchedule({ name: 'Daily', period: 'daily', time: '06:30', timeZone: 'America/New_York', channelIds: [mail.id, hook.id], scope: [{ region }] }, OPS);
    const end = Date.parse(schedule.nextReportAt!);

    const info = vi.spyOn(logger, 'info');
    await Promise.all([run(end + MINUTE), run(end + MINUTE)]);
    const made = info.mock.calls.filter(([message, facts]) => message === 'report made' && (facts as { scheduleId?: string }).scheduleId === schedule.id);
    info.mockRestore();
    expect(made).toHaveLength(1); // one run claimed the period and built the report; the other skipped it
    expect(await logOf(mail.id)).toHaveLength(1);
    expect(await logOf(hook.id)).toHaveLength(1);
    expect(await mailsTo(email)).toHaveLength(1);
    expect(payloadsOf(schedule.id)).toHaveLength(1);
    expect(await reportStore.run({ scheduleId: schedule.id, from: new Date(Date.parse(payloadsOf(schedule.id)[0]!.payload.report.from)).toISOString() })).toMatchObject({ status: 'made', deliveries: 2 });
  });

  it('takes over the claim of a run that died once its lease ended, storing no second delivery', async () => {
    const { region, mail, hook } = await reportedRegion();
    const schedule = await createSchedule({ name: 'Daily', period: 'daily', time: '00:00', timeZone: 'UTC', channelIds: [mail.id, hook.id], scope: [{ region }] }, OPS);
    const end = Date.parse(schedule.nextReportAt!);
    const key = { scheduleId: schedule.id, from: new Date(end - 24 * 60 * MINUTE).toISOString() };
    await reportStore.claim(key, { runId: 'dead', to: new Date(end).toISOString(), now: end, leaseUntil: end + CLAIM_LEASE_MS, expiresAt: Math.floor(end / 1000) + 86_400 });

    await run(end + MINUTE);
    expect(await logOf(mail.id)).toEqual([]);
    await run(end + CLAIM_LEASE_MS + MINUTE);
    expect(await logOf(mail.id)).toHaveLength(1);
    await run(end + CLAIM_LEASE_MS + 2 * MINUTE);
    expect(await logOf(hook.id)).toHaveLength(1);
    expect(await reportStore.run(key)).toMatchObject({ status: 'made' });
  });

  it('reports no period that ended before the schedule existed, and nothing while inactive', async () => {
    const { region, mail } = await reportedRegion();
    const schedule = await createSchedule({ name: 'Off', period: 'daily', time: '00:00', timeZone: 'UTC', channelIds: [mail.id], scope: [{ region }], active: false }, OPS);
    const created = Date.parse(schedule.createdAt);
    await run(created + MINUTE);
    await run(created + 3 * 24 * 60 * MINUTE);
    expect(await logOf(mail.id)).toEqual([]);
  });
});
