import { afterEach, describe, expect, it, vi } from 'vitest';
import { outboxMailer } from '#lib/adapters/mail';
import { acknowledgeAlarm, unacknowledgeAlarm } from '#lib/alarms/acknowledge';
import { fullPass } from '#lib/alarms/engine/fullPass';
import { listAlarms, type AlarmAnswer } from '#lib/alarms/query';
import type { Mail } from '#lib/notify/mail/types';
import * as alarmHistory from '#lib/alarms/repository/alarmHistory';
import * as alarms from '#lib/alarms/repository/alarms';
import * as deliveries from '#lib/notify/repository/deliveries';
import * as outbox from '#lib/notify/mail/repository';
import * as watchers from '#lib/watchers/repository';
import { Invalid, NotFound } from '#lib/shared/errors';
import { syncDevices } from '#lib/inventory/sync';
import { createChannel } from '#lib/notify/channels';
import { notifier } from '#lib/notify/notifier';
import type { WatcherInput } from '#lib/watchers/types';
import { device, fixed, offlineWatcher, unique } from '../support/fleet';

// Issue 28 item 3: an acknowledgement ends when its alarm clears, lapses at its ackUntil (one
// reminder, however many runs race), and the alarm's history tells who acknowledged and when.

const MINUTE = 60_000;
const iso = (ms: number) => new Date(ms).toISOString();
const soon = () => Date.now() + 20_000;
const evaluate = () => fullPass({ mailer: outboxMailer(), deadline: soon() });
const notify = () => notifier({ mailer: outboxMailer(), deadline: soon() }).run();
const mailsTo = async (email: string) => (await outbox.list(email, {})) as Mail[];

/** One device whose connection the test switches, watched by an offline watcher that mails an address and an e-mail channel. */
const scenario = async (overrides: Partial<WatcherInput> = {}) => {
  const region = unique('R');
  const sn = `${region}-1`;
  const state = { connected: true };
  const provider = fixed(() => [device(region, sn, 'A', state.connected)]);
  await syncDevices(provider);
  const email = `${unique('ops')}@example.com`;
  const teamMail = `${unique('team')}@example.com`;
  const channel = await createChannel({ name: 'team', type: 'email', emails: [teamMail] });
  const watcherId = await watchers.create(offlineWatcher(region, email, { channelIds: [channel.id], ...overrides }));
  const set = async (connected: boolean) => {
    state.connected = connected;
    await syncDevices(provider);
  };
  return { region, sn, email, teamMail, channel, watcherId, set, id: `${watcherId}:${sn}`, pair: { watcherId, devicesn: sn } };
};
const shown = async (region: string): Promise<AlarmAnswer[]> => {
  const answer = await listAlarms({ region });
  return Array.isArray(answer) ? answer : answer.items;
};
const historyOf = async (sn: string) => (await alarmHistory.query({ devicesn: sn, from: iso(0), to: iso(Date.now() + 60 * MINUTE) }, 10)).items;

/** The clock frozen at `start`, a scenario's device offline and evaluated: its alarm open (firing, or pending with `pendingSeconds`). */
const openAt = async (start: number, overrides: Partial<WatcherInput> = {}) => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(start);
  const s = await scenario(overrides);
  await s.set(false);
  await evaluate();
  return s;
};

afterEach(() => {
  vi.useRealTimers();
});

describe('an acknowledgement ends with its alarm', () => {
  it('ack -> clear -> fire again: the new alarm is unacknowledged, and the cleared one keeps its acknowledgement in its history', async () => {
    const s = await scenario();
    await s.set(false);
    await evaluate();
    await acknowledgeAlarm(s.id, 'ana', 'on it');
    expect((await shown(s.region))[0]).toMatchObject({ acknowledgedBy: 'ana', ackComment: 'on it' });

    await s.set(true);
    expect(await evaluate()).toMatchObject({ cleared: 1 });
    await s.set(false);
    expect(await evaluate()).toMatchObject({ raised: 1 });

    const [again] = await shown(s.region);
    expect(again).toMatchObject({ id: s.id, state: 'firing' });
    expect(again).not.toHaveProperty('acknowledgedAt');
    expect(again).not.toHaveProperty('acknowledgedBy');
    expect(await alarms.list({ watcherId: s.watcherId, acknowledged: false }, {})).toHaveLength(1);
    const [record] = await historyOf(s.sn);
    expect(record).toMatchObject({ acknowledgedBy: 'ana', ackComment: 'on it', acknowledgements: [{ action: 'ack', by: 'ana', comment: 'on it', at: expect.any(String) }] });
  });

  it('an acknowledgement given while pending survives the firing, with its history', async () => {
    const s = await scenario({ pendingSeconds: 1 });
    await s.set(false);
    expect(await evaluate()).toMatchObject({ pending: 1 });
    await acknowledgeAlarm(s.id, 'ana');
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect(await evaluate()).toMatchObject({ raised: 1 });
    expect((await shown(s.region))[0]).toMatchObject({ state: 'firing', acknowledgedBy: 'ana' });
    await s.set(true);
    await evaluate();
    expect((await historyOf(s.sn))[0]!.acknowledgements).toEqual([expect.objectContaining({ action: 'ack', by: 'ana' })]);
  });
});

describe('ack and unack in the alarm history', () => {
  it('records each acknowledgement and removal with who and when, oldest first', async () => {
    const s = await scenario();
    await s.set(false);
    await evaluate();
    const until = iso(Date.now() + 60 * MINUTE);
    await acknowledgeAlarm(s.id, 'ana', 'looking', [], until);
    await unacknowledgeAlarm(s.id, [], 'bo');
    await acknowledgeAlarm(s.id, 'cy');
    await s.set(true);
    await evaluate();
    const [record] = await historyOf(s.sn);
    expect(record!.acknowledgements).toEqual([
      { action: 'ack', by: 'ana', comment: 'looking', ackUntil: until, at: expect.any(String) },
      { action: 'unack', by: 'bo', at: expect.any(String) },
      { action: 'ack', by: 'cy', at: expect.any(String) },
    ]);
    expect(record).toMatchObject({ acknowledgedBy: 'cy' });
    expect(record).not.toHaveProperty('ackUntil');
  });

  it('refuses an ackUntil that is not ahead or more than 30 days ahead (422 naming body.ackUntil)', async () => {
    const s = await scenario();
    await s.set(false);
    await evaluate();
    for (const until of [iso(Date.now() - MINUTE), iso(Date.now() + 31 * 24 * 60 * MINUTE)]) {
      const refused = await acknowledgeAlarm(s.id, 'ana', undefined, [], until).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(Invalid);
      expect((refused as Invalid).details).toEqual([expect.objectContaining({ field: 'body.ackUntil' })]);
    }
    expect((await shown(s.region))[0]).not.toHaveProperty('acknowledgedAt');
  });

  it('answers 404 for an unknown alarm with an ackUntil', async () => {
    await expect(acknowledgeAlarm(`${unique('w')}:nope`, 'ana', undefined, [], iso(Date.now() + MINUTE))).rejects.toBeInstanceOf(NotFound);
  });
});

describe('ackUntil', () => {
  it('while acknowledged nothing is reminded; once ackUntil passed the alarm shows unacknowledged and is reminded once, however many runs race', async () => {
    // five minutes into an hour: +80 and +91 minutes lie in the same hourly repeat slot
    const start = Math.ceil(Date.now() / (60 * MINUTE)) * 60 * MINUTE + 5 * MINUTE;
    const s = await openAt(start, { repeatIntervalSeconds: 3600 });
    expect(await mailsTo(s.email)).toHaveLength(1);
    const until = iso(start + 90 * MINUTE);
    expect(await acknowledgeAlarm(s.id, 'ana', 'vendor ticket', [], until)).toMatchObject({ acknowledgedBy: 'ana', ackUntil: until });

    // past the first repeat slot, before ackUntil: acknowledged, nothing reminded
    vi.setSystemTime(start + 80 * MINUTE);
    await notify();
    expect(await mailsTo(s.email)).toHaveLength(1);
    expect((await shown(s.region))[0]).toMatchObject({ acknowledgedBy: 'ana' });

    // ackUntil passed: answers show it unacknowledged before any run
    vi.setSystemTime(start + 91 * MINUTE);
    expect((await shown(s.region))[0]).not.toHaveProperty('acknowledgedAt');
    expect(await alarms.list({ watcherId: s.watcherId, acknowledged: false }, {})).toHaveLength(1);
    expect(await alarms.list({ watcherId: s.watcherId, acknowledged: true }, {})).toEqual([]);

    await Promise.all([notify(), notify(), evaluate()]);
    await notify();
    const mails = await mailsTo(s.email);
    expect(mails).toHaveLength(2);
    expect(mails[0]!.text).toContain(s.sn);
    expect(await mailsTo(s.teamMail)).toHaveLength(2);
    expect((await deliveries.log(s.channel.id, 10)).items.map((d) => d.type).sort()).toEqual(['alarms.raised', 'alarms.repeat']);
    expect(await alarms.get(s.pair)).not.toHaveProperty('acknowledgedAt');

    await s.set(true);
    await evaluate();
    const [record] = await historyOf(s.sn);
    expect(record!.acknowledgements).toEqual([
      { action: 'ack', by: 'ana', comment: 'vendor ticket', ackUntil: until, at: expect.any(String) },
      { action: 'unack', by: 'system', lapsed: true, at: until },
    ]);
  });

  it('an acknowledgement replaced or removed before its ackUntil does not lapse then', async () => {
    const start = Date.now();
    const s = await openAt(start);
    await acknowledgeAlarm(s.id, 'ana', undefined, [], iso(start + 10 * MINUTE));
    await acknowledgeAlarm(s.id, 'bo');

    vi.setSystemTime(start + 11 * MINUTE);
    await notify();
    expect((await shown(s.region))[0]).toMatchObject({ acknowledgedBy: 'bo' });
    expect(await mailsTo(s.email)).toHaveLength(1);
  });

  it('of two acknowledgements with ackUntil, due together, only the one standing lapses: one reminder', async () => {
    const start = Date.now();
    const s = await openAt(start);
    await acknowledgeAlarm(s.id, 'ana', undefined, [], iso(start + 10 * MINUTE));
    vi.setSystemTime(start + MINUTE);
    await acknowledgeAlarm(s.id, 'bo', undefined, [], iso(start + 5 * MINUTE));

    vi.setSystemTime(start + 11 * MINUTE);
    await notify();
    await notify();
    expect(await alarms.get(s.pair)).not.toHaveProperty('acknowledgedAt');
    expect(await mailsTo(s.email)).toHaveLength(2);
  });

  it('a pending alarm whose ackUntil passes is unacknowledged without a reminder', async () => {
    const start = Date.now();
    const s = await openAt(start, { pendingSeconds: 3 * 3600 });
    await acknowledgeAlarm(s.id, 'ana', undefined, [], iso(start + 10 * MINUTE));
    vi.setSystemTime(start + 11 * MINUTE);
    await notify();
    expect(await alarms.get(s.pair)).toMatchObject({ state: 'pending' });
    expect(await alarms.get(s.pair)).not.toHaveProperty('acknowledgedAt');
    expect(await mailsTo(s.email)).toEqual([]);
  });
});
