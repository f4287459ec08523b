import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { fullPass } from '#lib/alarms/engine/fullPass';
import { outboxMailer } from '#lib/adapters/mail';
import { acknowledgeAlarm } from '#lib/alarms/acknowledge';
import * as alarms from '#lib/alarms/repository/alarms';
import { syncDevices } from '#lib/inventory/sync';
import { createChannel, getChannel, replaceChannel } from '#lib/notify/channels';
import * as channelStore from '#lib/notify/repository/channels';
import * as deliveries from '#lib/notify/repository/deliveries';
import { notifier } from '#lib/notify/notifier';
import { receivePagerDutyEvent } from '#lib/notify/pagerduty/receive';
import { acknowledgedNotice } from '#lib/notify/acknowledgements';
import { pagerdutySignature } from '#lib/notify/pagerduty/pure/webhooks';
import * as watchers from '#lib/watchers/repository';
import type { ProviderDevice } from '#lib/devices/types';
import { HttpError } from '#lib/shared/errors';
import { startPagerDutyFake, type PagerDutyFake } from '../../scripts/local/fakes/pagerduty';
import { device, fixed, offlineWatcher, unique } from '../support/fleet';

// The PagerDuty channel end to end against the PagerDuty fake: one event per alarm and transition, retried through 429s, and the receiver.
const ROUTING_KEY = 'R0uT1nGk3yR0uT1nGk3yR0uT1nGk3y42';
const SECRET = 'pd-webhook-secret';
let fake: PagerDutyFake;

beforeAll(async () => {
  fake = await startPagerDutyFake();
  vi.stubEnv('PAGERDUTY_EVENTS_URL', `${fake.url}/v2/enqueue`);
});
afterAll(async () => {
  vi.unstubAllEnvs();
  await fake.close();
});

const soon = () => Date.now() + 20_000;
const pass = () => fullPass({ mailer: outboxMailer(), deadline: soon() });
/** A notifier run whose retries are due at once (the 429 test). */
const tellNow = () => notifier({ mailer: outboxMailer(), deadline: soon(), policy: { baseMs: 1, maxDelayMs: 1, windowMs: 3_600_000 } }).run();
const eventsOf = (keys: readonly string[], action: string) => fake.events.filter((e) => keys.includes(e.dedup_key) && e.event_action === action);

/** `count` offline devices of a new region, a watcher of them telling a new PagerDuty channel; `online()` brings them back. */
const pagedRegion = async (count: number) => {
  const region = unique('R');
  let fleet: ProviderDevice[] = Array.from({ length: count }, (_, i) => device(region, `${region}-${i}`, `Room ${i}`, false));
  await syncDevices(fixed(() => fleet));
  const channel = await createChannel({ name: 'on call', type: 'pagerduty', routingKey: ROUTING_KEY });
  const watcherId = await watchers.create(offlineWatcher(region, `${unique('ops')}@example.com`, { channelIds: [channel.id], sendEmail: false }));
  const online = async () => {
    fleet = fleet.map((d) => ({ ...d, status: { ...d.status, connected: true } }));
    await syncDevices(fixed(() => fleet));
  };
  return { region, channel, watcherId, online, ids: fleet.map((d) => `${watcherId}:${d.devicesn}`) };
};

const signed = (event: Record<string, unknown>, secret = SECRET, now = Date.now()) => {
  const body = { event: { id: unique('ev'), occurred_at: new Date(now).toISOString(), ...event } };
  const rawBody = JSON.stringify(body);
  return { rawBody, body, signature: pagerdutySignature(secret, rawBody), secret: SECRET };
};
const statusOf = async (work: Promise<unknown>) => work.then(() => 200, (e: unknown) => (e instanceof HttpError ? (e.statusCode ?? 400) : 500));

describe('PagerDuty channel', () => {
  it('keeps the routing key as a secret: whole in the create answer only, masked after, kept by a PUT of the mask', async () => {
    const created = await createChannel({ name: 'pd', type: 'pagerduty', routingKey: ROUTING_KEY });
    expect(created).toMatchObject({ type: 'pagerduty', routingKey: ROUTING_KEY });
    const read = await getChannel(created.id);
    expect(read).toMatchObject({ type: 'pagerduty', routingKey: '***3y42' });
    expect(JSON.stringify(read)).not.toContain(ROUTING_KEY);
    await replaceChannel(created.id, { name: 'renamed', type: 'pagerduty', routingKey: '***3y42' });
    expect(await channelStore.secretOf(created.id)).toBe(ROUTING_KEY);
    expect(await statusOf(replaceChannel(created.id, { name: 'x', type: 'pagerduty', routingKey: '***abcd' }))).toBe(400);
  });

  it('triggers once per alarm with its id as dedup_key, acknowledges once, does not echo PagerDuty, resolves once', async () => {
    const { ids, channel, online } = await pagedRegion(3);
    await pass();
    await pass();
    const triggers = eventsOf(ids, 'trigger');
    expect(triggers.map((e) => e.dedup_key).sort()).toEqual([...ids].sort());
    expect(triggers[0]!.payload).toMatchObject({ severity: 'error', custom_details: { device: expect.any(String), room: expect.any(String), location: 'London', region: expect.any(String) } });
    expect((await deliveries.log(channel.id, 10)).items.filter((d) => d.type === 'alarms.raised' && d.status === 'delivered')).toHaveLength(3);

    // acknowledged here: one acknowledge, however often the notifier runs
    await acknowledgeAlarm(ids[0]!, 'alice', undefined, [], undefined, acknowledgedNotice);
    await pass();
    await pass();
    expect(eventsOf(ids, 'acknowledge').map((e) => e.dedup_key)).toEqual([ids[0]]);

    // acknowledged in PagerDuty: our alarm names the user, and nothing goes back
    const answer = await receivePagerDutyEvent(signed({ event_type: 'incident.acknowledged', agent: { summary: 'Dana', email: 'dana@example.com' }, data: { incident_key: ids[1] } }));
    expect(answer).toEqual({ received: true, outcome: 'acknowledged', alarmId: ids[1] });
    expect(await alarms.get({ watcherId: ids[1]!.split(':')[0]!, devicesn: ids[1]!.split(':')[1]! })).toMatchObject({ acknowledgedBy: 'PagerDuty user Dana <dana@example.com>' });
    await pass();
    expect(eventsOf(ids, 'acknowledge').map((e) => e.dedup_key)).toEqual([ids[0]]);

    await online();
    await pass();
    await pass();
    expect(eventsOf(ids, 'resolve').map((e) => e.dedup_key).sort()).toEqual([...ids].sort());
  }, 90_000);

  it('waits out 429s and 5xx and sends every event once they pass: nothing dropped', async () => {
    const { ids, channel } = await pagedRegion(4);
    vi.stubEnv('NOTIFY_RETRY_BASE_SECONDS', '0.001'); // retries due at once: the test waits for no clock
    // the fake's 429s say Retry-After: 0 (honoured like any other), so the retries are due at once too
    Object.assign(fake.faults, { rate429: 1, retryAfterSeconds: 0 });
    await pass();
    expect(eventsOf(ids, 'trigger')).toHaveLength(0);
    expect((await deliveries.log(channel.id, 10)).items.map((d) => [d.status, d.lastResponseStatus])).toEqual(Array(4).fill(['retrying', 429]));
    Object.assign(fake.faults, { rate429: 0, burst5xx: 2 });
    for (let run = 0; run < 10 && eventsOf(ids, 'trigger').length < 4; run++) await tellNow();
    vi.stubEnv('NOTIFY_RETRY_BASE_SECONDS', '');
    expect(eventsOf(ids, 'trigger').map((e) => e.dedup_key).sort()).toEqual([...ids].sort());
    expect((await deliveries.log(channel.id, 10)).items.every((d) => d.status === 'delivered')).toBe(true);
  }, 90_000);
});

describe('PagerDuty receiver', () => {
  it('refuses unsigned, forged and stale events with 401 and changes nothing; takes any of several signatures', async () => {
    const { ids } = await pagedRegion(1);
    await pass();
    const [watcherId, devicesn] = ids[0]!.split(':') as [string, string];
    const ack = { event_type: 'incident.acknowledged', agent: { summary: 'Eve' }, data: { incident_key: ids[0] } };
    expect(await statusOf(receivePagerDutyEvent({ ...signed(ack), signature: undefined }))).toBe(401);
    expect(await statusOf(receivePagerDutyEvent(signed(ack, 'wrong-secret')))).toBe(401);
    expect(await statusOf(receivePagerDutyEvent(signed(ack, SECRET, Date.now() - 3_600_000)))).toBe(401);
    expect(await alarms.get({ watcherId, devicesn })).not.toHaveProperty('acknowledgedBy');
    const rotating = signed(ack);
    const answer = await receivePagerDutyEvent({ ...rotating, signature: `${pagerdutySignature('old-secret', rotating.rawBody)}, ${rotating.signature}` });
    expect(answer.outcome).toBe('acknowledged');
  });

  it('keeps an alarm whose device still fails firing when PagerDuty resolves it, and says so in its history', async () => {
    const { ids } = await pagedRegion(1);
    await pass();
    const [watcherId, devicesn] = ids[0]!.split(':') as [string, string];
    const answer = await receivePagerDutyEvent(signed({ event_type: 'incident.resolved', agent: { summary: 'Bob' }, data: { incident_key: ids[0] } }));
    expect(answer).toEqual({ received: true, outcome: 'stillFiring', alarmId: ids[0] });
    const [alarm] = (await alarms.openOf(watcherId)).filter((a) => a.devicesn === devicesn);
    expect(alarm).toMatchObject({ state: 'firing' });
    expect(alarm!.ackEvents?.at(-1)).toMatchObject({ action: 'note', by: 'pagerduty', comment: expect.stringContaining('stays firing') });
  });
});
