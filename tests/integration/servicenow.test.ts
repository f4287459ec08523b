import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { fullPass } from '#lib/alarms/engine/fullPass';
import { outboxMailer } from '#lib/adapters/mail';
import { createChannel, getChannel, listChannels, replaceChannel, testChannel } from '#lib/notify/channels';
import { acknowledgeAndTell } from '#lib/notify/acknowledgements';
import { createSilence } from '#lib/alarms/silences';
import { logger } from '#lib/shared/log';
import { capturedLines } from '../support/logs';
import * as deliveries from '#lib/notify/repository/deliveries';
import * as watchers from '#lib/watchers/repository';
import { syncDevices } from '#lib/inventory/sync';
import { HttpError } from '#lib/shared/errors';
import { sleep } from '#lib/shared/timer';
import { SERVICENOW_FAKE_CREDENTIALS, startServiceNowFake, type ServiceNowFake } from '../../scripts/local/fakes/servicenow';
import { device, fixed, offlineWatcher, unique } from '../support/fleet';

/*
 * The ServiceNow channel against the local ServiceNow fake, through the alarm engine and the
 * notifier as they run: one incident per alarm however often a delivery is retried, moved to
 * Resolved with close notes when the alarm clears, over basic auth and OAuth client credentials.
 */
let fake: ServiceNowFake;
beforeAll(async () => {
  fake = await startServiceNowFake();
});
afterAll(() => fake.close());
beforeEach(() => {
  vi.stubEnv('ALLOW_LOCAL_WEBHOOKS', 'true');
  // a failed attempt is due again at once, so the next run retries it
  vi.stubEnv('NOTIFY_RETRY_BASE_SECONDS', '0.001');
});
afterEach(() => {
  vi.unstubAllEnvs();
  Object.assign(fake.faults, { burst5xx: 0, down: null, failAfterRequests: null, rate429: 0 });
});

const soon = () => Date.now() + 20_000;
const run = () => fullPass({ mailer: outboxMailer(), deadline: soon() });
const basic = () => ({ username: SERVICENOW_FAKE_CREDENTIALS.username, password: SERVICENOW_FAKE_CREDENTIALS.password });

/** A region of offline devices watched by a watcher that tells only a ServiceNow channel. */
const watchedRegion = async (serials: string[], credentials: Record<string, string> = basic()) => {
  const region = unique('SN');
  let connected = false;
  const provider = fixed(() => serials.map((sn) => device(region, `${region}-${sn}`, 'Room 1', connected)));
  await syncDevices(provider);
  const channel = await createChannel({ name: 'itsm', type: 'servicenow', instanceUrl: fake.url, ...credentials });
  const watcherId = await watchers.create(offlineWatcher(region, `${unique('ops')}@example.com`, { sendEmail: false, emails: [], channelIds: [channel.id], severity: 1 }));
  return {
    region,
    channel,
    watcherId,
    recover: async () => {
      connected = true;
      await syncDevices(provider);
    },
  };
};
const incidentsOf = (watcherId: string) => [...fake.incidents.values()].filter(({ record }) => record.correlation_id?.startsWith(`${watcherId}:`));
/** Runs the engine until no delivery of the channel is left to attempt (retries included). */
const runUntilSettled = async (channelId: string) => {
  for (let i = 0; i < 10; i++) {
    await run();
    const log = (await deliveries.log(channelId, 50)).items;
    if (log.every((d) => d.status !== 'retrying' && d.status !== 'pending')) return log;
    await sleep(20);
  }
  throw new Error('deliveries still retrying after 10 runs');
};
const statusOf = async (attempt: Promise<unknown>) => {
  try {
    await attempt;
  } catch (error) {
    return error instanceof HttpError ? (error.statusCode ?? 400) : 500;
  }
  return 200;
};

// each test runs the whole engine several times over the shared test table: slow on a busy machine, never timed
describe('ServiceNow channel', { timeout: 90_000 }, () => {
  it('opens one incident per alarm, urgency and impact from the severity, and never a second one when deliveries are retried', async () => {
    const { watcherId, channel, region } = await watchedRegion(['A', 'B']);
    // the 4th Table API request fails: the first alarm's incident is opened, the second's not, and the delivery is retried
    fake.faults.failAfterRequests = 3;
    await run();
    expect((await deliveries.log(channel.id, 10)).items).toEqual([expect.objectContaining({ type: 'alarms.raised', status: 'retrying', lastResponseStatus: 500 })]);
    fake.faults.failAfterRequests = null;
    fake.faults.burst5xx = 2; // and twice more: ServiceNow down for a moment
    const log = await runUntilSettled(channel.id);

    expect(log).toEqual([expect.objectContaining({ type: 'alarms.raised', status: 'delivered', lastResponseStatus: 201 })]);
    const incidents = incidentsOf(watcherId);
    expect(incidents.map(({ record }) => record.correlation_id).sort()).toEqual([`${watcherId}:${region}-A`, `${watcherId}:${region}-B`]);
    expect(incidents[0]!.record).toMatchObject({ state: '1', urgency: '1', impact: '1', short_description: expect.stringMatching(/^Critical: device offline: SN/) });
  });

  it('resolves the incident with close code and notes when the alarm clears, once', async () => {
    const { watcherId, channel, recover } = await watchedRegion(['A']);
    await runUntilSettled(channel.id);
    await recover();
    fake.faults.rate429 = 1; // throttled: the clear waits, it is not lost
    await run();
    expect((await deliveries.log(channel.id, 10)).items[0]).toMatchObject({ type: 'alarms.cleared', status: 'retrying', lastResponseStatus: 429 });
    fake.faults.rate429 = 0;
    await runUntilSettled(channel.id);
    await runUntilSettled(channel.id);

    const incidents = incidentsOf(watcherId);
    expect(incidents).toHaveLength(1);
    expect(incidents[0]!.record).toMatchObject({ state: '6', close_code: 'Solved (Permanently)', close_notes: expect.stringContaining('recovered') });
    const patches = fake.events.filter((e) => e.method === 'PATCH' && e.path.endsWith(incidents[0]!.record.sys_id));
    expect(patches).toHaveLength(1);
  });

  it('moves the incident to In Progress with a work note naming who acknowledged, once, and resolves it after', async () => {
    const { watcherId, region, channel, recover } = await watchedRegion(['A']);
    await runUntilSettled(channel.id);
    await acknowledgeAndTell(`${watcherId}:${region}-A`, 'dana@example.com', 'on my way');
    await runUntilSettled(channel.id);
    await run();

    const [incident, ...others] = incidentsOf(watcherId);
    expect(others).toEqual([]);
    expect(incident!.record.state).toBe('2');
    expect(incident!.notes).toEqual([expect.stringMatching(/^Acknowledged in device monitoring by dana@example\.com at .*: on my way$/)]);
    expect((await deliveries.log(channel.id, 10)).items.map((d) => [d.type, d.status])).toEqual([
      ['alarms.acknowledged', 'delivered'],
      ['alarms.raised', 'delivered'],
    ]);
    await recover();
    await runUntilSettled(channel.id);
    expect(incidentsOf(watcherId).map(({ record }) => record.state)).toEqual(['6']);
  });

  it('holds the incident while a silence covers the alarm, as it holds mail: raise and acknowledgement logged suppressed, nothing sent', async () => {
    const region = unique('SN');
    await createSilence({ matchers: { region }, endsAt: new Date(Date.now() + 3600_000).toISOString(), comment: 'maintenance' }, 'ops');
    const before = fake.events.length;
    const provider = fixed(() => [device(region, `${region}-A`, 'Room 1', false)]);
    await syncDevices(provider);
    const channel = await createChannel({ name: 'itsm', type: 'servicenow', instanceUrl: fake.url, ...basic() });
    const watcherId = await watchers.create(offlineWatcher(region, `${unique('ops')}@example.com`, { sendEmail: false, emails: [], channelIds: [channel.id] }));
    await run();
    await acknowledgeAndTell(`${watcherId}:${region}-A`, 'dana@example.com');
    await run();

    expect((await deliveries.log(channel.id, 10)).items.map((d) => [d.type, d.status])).toEqual([
      ['alarms.acknowledged', 'suppressed'],
      ['alarms.raised', 'suppressed'],
    ]);
    expect(incidentsOf(watcherId)).toEqual([]);
    expect(fake.events.slice(before).filter((e) => JSON.stringify(e).includes(watcherId))).toEqual([]);
  });

  it('uses OAuth client credentials: one token, a bearer on every Table API request', async () => {
    const before = fake.stats.tokensIssued;
    const { watcherId, channel } = await watchedRegion(['A'], { clientId: SERVICENOW_FAKE_CREDENTIALS.clientId, clientSecret: SERVICENOW_FAKE_CREDENTIALS.clientSecret });
    await runUntilSettled(channel.id);
    expect(incidentsOf(watcherId)).toHaveLength(1);
    expect(fake.stats.tokensIssued - before).toBe(1);
  });

  it('tests the channel with one read of the incident table: delivered with good credentials, failed 401 with bad ones', async () => {
    const good = await createChannel({ name: 'itsm', type: 'servicenow', instanceUrl: fake.url, ...basic() });
    const bad = await createChannel({ name: 'itsm', type: 'servicenow', instanceUrl: fake.url, username: 'someone', password: 'wrong' });
    const before = fake.events.length;
    expect(await testChannel(good.id, outboxMailer(), soon())).toMatchObject({ type: 'test', status: 'delivered', lastResponseStatus: 200 });
    expect(await testChannel(bad.id, outboxMailer(), soon())).toMatchObject({ type: 'test', status: 'failed', lastResponseStatus: 401 });
    expect(fake.events.slice(before).map((e) => [e.method, e.path])).toEqual([
      ['GET', '/api/now/table/incident'],
      ['GET', '/api/now/table/incident'],
    ]);
  });

  it('fails (no retry) when the instance refuses the credentials, visible in the delivery log, the credential in no log line', async () => {
    const lines = capturedLines(logger);
    const password = `wrong-${unique('pw')}`;
    const { channel } = await watchedRegion(['A'], { username: 'someone', password });
    await run();
    vi.restoreAllMocks();
    expect((await deliveries.log(channel.id, 10)).items[0]).toMatchObject({ status: 'failed', lastResponseStatus: 401 });
    expect(lines.some((line) => line.includes('notification not delivered') && line.includes('401'))).toBe(true);
    expect(lines.filter((line) => line.includes(password) || line.includes(Buffer.from(`someone:${password}`).toString('base64')))).toEqual([]);
  });

  it('never answers the credential, keeps it on a PUT of the mask, and refuses incomplete or mixed credentials with a 400 naming the field', async () => {
    const { channel } = await watchedRegion(['A']);
    expect(channel).toMatchObject({ type: 'servicenow', auth: 'basic', username: SERVICENOW_FAKE_CREDENTIALS.username, password: '********' });
    expect(JSON.stringify(await listChannels())).not.toContain(SERVICENOW_FAKE_CREDENTIALS.password);
    const kept = await replaceChannel(channel.id, { name: 'renamed', type: 'servicenow', instanceUrl: fake.url, username: SERVICENOW_FAKE_CREDENTIALS.username, password: '********' });
    expect(kept).toMatchObject({ name: 'renamed', password: '********' });
    expect(JSON.stringify(await getChannel(channel.id))).not.toContain(SERVICENOW_FAKE_CREDENTIALS.password);

    const base = { name: 'x', type: 'servicenow' as const, instanceUrl: fake.url };
    const invalid = async (input: Record<string, string>) => {
      try {
        await createChannel({ ...base, ...input });
      } catch (error) {
        return error instanceof HttpError ? { status: error.statusCode ?? 400, details: error.details } : error;
      }
      return 'created';
    };
    expect(await invalid({ username: 'u' })).toMatchObject({ status: 400, details: [{ field: 'body.password' }] });
    expect(await invalid({ username: 'u', password: 'p', clientId: 'c', clientSecret: 's' })).toMatchObject({ status: 400, details: [{ field: 'body.clientId' }] });
    expect(await invalid({ clientSecret: 's' })).toMatchObject({ status: 400, details: [{ field: 'body.clientId' }] });
    expect(await invalid({ username: 'u', password: '********' })).toMatchObject({ status: 400, details: [{ field: 'body.password' }] });
    expect(await statusOf(createChannel({ ...base, instanceUrl: `${fake.url}/api/now`, ...basic() }))).toBe(400);
    vi.stubEnv('ALLOW_LOCAL_WEBHOOKS', 'false');
    expect(await invalid({ ...basic() })).toMatchObject({ status: 400, details: [{ field: 'body.instanceUrl', message: 'body.instanceUrl must use https' }] });
  });
});
