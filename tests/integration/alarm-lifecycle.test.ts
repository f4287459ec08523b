import { randomUUID } from 'node:crypto';
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { fullPass } from '#lib/alarms/engine/fullPass';
import { outboxMailer } from '#lib/adapters/mail';
import { historyExpiry } from '#lib/shared/retention';
import type { Mail } from '#lib/notify/mail/types';
import * as alarmHistory from '#lib/alarms/repository/alarmHistory';
import * as alarms from '#lib/alarms/repository/alarms';
import type { AlarmView } from '#lib/alarms/repository/alarms';
import { doc, tableName } from '#lib/store/client';
import * as outbox from '#lib/notify/mail/repository';
import * as rooms from '#lib/rollups/repository/rooms';
import * as silences from '#lib/alarms/repository/silences';
import * as watchers from '#lib/watchers/repository';
import { roomStatusCount } from '#lib/devices/stats';
import { syncDevices } from '#lib/inventory/sync';
import { Conflict, NotFound } from '#lib/shared/errors';
import type { WatcherInput } from '#lib/watchers/types';
import { device, fixed, offlineWatcher, unique } from '../support/fleet';
import { HistoryByDeviceEntity, HistoryByPlaceEntity, historyPk } from '#lib/alarms/entities';
import type { HistoryRecord } from '#lib/alarms/pure/history';

const evaluate = () => fullPass({ mailer: outboxMailer(), deadline: Date.now() + 30_000 });
const mailsTo = async (email: string) => (await outbox.list(email, {})) as Mail[];
const statusIn = async (region: string) => roomStatusCount(await rooms.inPlace({ region }));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const HOUR = 3_600_000;
const iso = (ms: number) => new Date(ms).toISOString();

/** A region with one device whose connection the test switches, and an offline watcher on it. */
const scenario = async (watcher: Partial<WatcherInput> = {}) => {
  const region = unique('R');
  const email = `${unique('ops')}@example.com`;
  const sn = `${region}-1`;
  const state = { connected: true };
  const provider = fixed(() => [device(region, sn, 'A', state.connected)]);
  await syncDevices(provider);
  const watcherId = await watchers.create(offlineWatcher(region, email, watcher));
  const set = async (connected: boolean) => {
    state.connected = connected;
    await syncDevices(provider);
  };
  return { region, email, sn, watcherId, set, id: `${watcherId}:${sn}` };
};

/** A scenario whose device went offline and came back, evaluated after each: one alarm raised and cleared. */
const clearedScenario = async () => {
  const s = await scenario();
  await s.set(false);
  await evaluate();
  await s.set(true);
  await evaluate();
  return s;
};

describe('pending period through the engine', () => {
  it('pending -> firing: listed as pending, no mail, room OK; fires with one mail once the period has passed', async () => {
    const s = await scenario({ pendingSeconds: 1 });
    await s.set(false);
    expect(await evaluate()).toMatchObject({ pending: 1, raised: 0, mailed: 0 });
    expect(await alarms.list({ watcherId: s.watcherId, state: 'pending' }, {})).toEqual([
      expect.objectContaining({ id: s.id, state: 'pending', pendingSince: expect.any(String), firesAt: expect.any(String) }),
    ]);
    expect(await alarms.list({ watcherId: s.watcherId }, {})).toEqual([]);
    expect(await statusIn(s.region)).toMatchObject({ OKStatus: 1 });
    expect(await mailsTo(s.email)).toEqual([]);
    expect((await alarms.duePending(iso(Date.now() + 2000))).map((a) => a.devicesn)).toContain(s.sn);

    await sleep(1100);
    expect(await evaluate()).toMatchObject({ raised: 1, mailed: 1 });
    const [firing] = (await alarms.list({ watcherId: s.watcherId }, {})) as AlarmView[];
    expect(firing).toMatchObject({ state: 'firing', pendingSince: expect.any(String) });
    expect(firing!.raisedAt > firing!.pendingSince!).toBe(true);
    expect(await statusIn(s.region)).toMatchObject({ MajorStatus: 1 });
    expect(await alarms.list({ watcherId: s.watcherId, state: 'pending' }, {})).toEqual([]);
  });

  it('pending -> gone: the condition stops first, no mail, no history', async () => {
    const s = await scenario({ pendingSeconds: 3600 });
    await s.set(false);
    expect(await evaluate()).toMatchObject({ pending: 1 });
    await s.set(true);
    expect(await evaluate()).toMatchObject({ dropped: 1, cleared: 0, mailed: 0 });
    expect(await alarms.list({ watcherId: s.watcherId, state: 'pending' }, {})).toEqual([]);
    expect(await mailsTo(s.email)).toEqual([]);
    expect((await alarmHistory.query({ watcherId: s.watcherId, from: iso(0), to: iso(Date.now() + HOUR) }, 10)).items).toEqual([]);
    await expect(alarms.acknowledge({ watcherId: s.watcherId, devicesn: s.sn }, undefined)).rejects.toBeInstanceOf(NotFound);
  });
});

describe('silences and acknowledgements through the engine', () => {
  it('a silenced alarm still counts in room status; its raise and clear are not mailed and recorded as suppressed', async () => {
    const s = await scenario();
    const now = new Date().toISOString();
    await silences.create(
      { id: randomUUID(), matchers: { region: s.region }, startsAt: now, endsAt: iso(Date.now() + HOUR), comment: 'maintenance', createdBy: 'api-key', createdAt: now },
      historyExpiry(iso(Date.now() + HOUR)),
    );
    await s.set(false);
    expect(await evaluate()).toMatchObject({ raised: 1, mailed: 0 });
    expect(await statusIn(s.region)).toMatchObject({ MajorStatus: 1 });
    await s.set(true);
    expect(await evaluate()).toMatchObject({ cleared: 1, mailed: 0 });
    expect(await mailsTo(s.email)).toEqual([]);
    const { items } = await alarmHistory.query({ devicesn: s.sn, from: iso(0), to: iso(Date.now() + HOUR) }, 10);
    expect(items).toEqual([expect.objectContaining({ notified: { raised: 'suppressed', cleared: 'suppressed' } })]);
  });

  it('acknowledges an open alarm, filters by it, removes it; a cleared alarm is 409, an unknown one 404', async () => {
    const s = await scenario();
    await s.set(false);
    await evaluate();
    const pair = { watcherId: s.watcherId, devicesn: s.sn };
    const acked = await alarms.acknowledge(pair, { acknowledgedAt: new Date().toISOString(), acknowledgedBy: 'ana', ackComment: 'on it' });
    expect(acked).toMatchObject({ id: s.id, acknowledgedBy: 'ana', ackComment: 'on it', state: 'firing' });
    expect(await alarms.list({ watcherId: s.watcherId, acknowledged: true }, {})).toHaveLength(1);
    expect(await alarms.list({ watcherId: s.watcherId, acknowledged: false }, {})).toEqual([]);
    expect(await evaluate()).toMatchObject({ raised: 0, updated: 0 });
    expect((await alarms.get(pair))?.acknowledgedBy).toBe('ana');

    const removed = await alarms.acknowledge(pair, undefined);
    expect(removed).not.toHaveProperty('acknowledgedAt');
    expect(await alarms.list({ watcherId: s.watcherId, acknowledged: false }, {})).toHaveLength(1);

    await alarms.acknowledge(pair, { acknowledgedAt: new Date().toISOString(), acknowledgedBy: 'api-key' });
    await s.set(true);
    await evaluate();
    await expect(alarms.acknowledge(pair, undefined)).rejects.toBeInstanceOf(Conflict);
    await expect(alarms.acknowledge({ watcherId: s.watcherId, devicesn: 'nope' }, undefined)).rejects.toBeInstanceOf(NotFound);
    const { items } = await alarmHistory.query({ devicesn: s.sn, from: iso(0), to: iso(Date.now() + HOUR) }, 10);
    expect(items).toEqual([expect.objectContaining({ acknowledgedBy: 'api-key', notified: { raised: [s.email], cleared: [s.email] } })]);
  });
});

describe('alarm history: keys, queries and retention', () => {
  it('writes one record per cleared alarm, found by device, room, watcher, location, region and everything', async () => {
    const s = await clearedScenario();
    const window = { from: iso(Date.now() - HOUR), to: iso(Date.now() + HOUR) };
    const filters = [
      { devicesn: s.sn },
      { region: s.region, location: 'London', room: 'A' },
      { watcherId: s.watcherId },
      { region: s.region, location: 'London' },
      { region: s.region },
      { region: s.region, watcherId: s.watcherId, devicesn: s.sn },
    ];
    for (const filter of filters) {
      const { items } = await alarmHistory.query({ ...filter, ...window }, 10);
      expect(items, JSON.stringify(filter)).toEqual([
        expect.objectContaining({ id: s.id, watcherId: s.watcherId, devicesn: s.sn, room: 'A', reason: 'resolved', durationSeconds: expect.any(Number) }),
      ]);
    }
    const everything = await alarmHistory.query({ ...window }, 1000);
    expect(everything.items.filter((r) => r.devicesn === s.sn)).toHaveLength(1);
    expect((await alarmHistory.query({ devicesn: s.sn, from: iso(Date.now() + 60_000), to: iso(Date.now() + HOUR) }, 10)).items).toEqual([]);
    expect((await alarmHistory.query({ devicesn: s.sn, region: 'elsewhere', ...window }, 10)).items).toEqual([]);
  });

  it('stores the record under the documented keys with expiresAt = clearedAt + ALARM_HISTORY_DAYS', async () => {
    const s = await clearedScenario();
    const { Items } = await doc.send(
      new QueryCommand({ TableName: tableName(), KeyConditionExpression: 'PK = :pk', ExpressionAttributeValues: { ':pk': historyPk.device(s.sn) } }),
    );
    expect(Items).toHaveLength(1);
    const item = Items![0]!;
    expect(item).toMatchObject({
      SK: HistoryByDeviceEntity.key({ ...item, watcherId: s.watcherId } as HistoryRecord).SK,
      GSI1PK: historyPk.room({ region: s.region, location: 'London', room: 'A' }),
      GSI2PK: historyPk.watcher(s.watcherId),
      expiresAt: historyExpiry(String(item.clearedAt), 90),
    });
    const placeSk = HistoryByPlaceEntity.key({ ...item, watcherId: s.watcherId, devicesn: s.sn } as HistoryRecord).SK;
    const { Item: byPlace } = await doc.send(
      new GetCommand({ TableName: tableName(), Key: { PK: historyPk.location({ region: s.region, location: 'London' }), SK: placeSk } }),
    );
    // the fleet-wide keys are sharded (issue 14): <key>#<shard>
    expect(byPlace).toMatchObject({ GSI1PK: expect.stringMatching(new RegExp(`^${historyPk.region(s.region)}#\\d+$`)), GSI2PK: expect.stringMatching(new RegExp(`^${historyPk.all()}#\\d+$`)), id: s.id });
  });

  it('treats a record past its retention as gone', async () => {
    const sn = unique('SN');
    const clearedAt = iso(Date.now() - 2 * HOUR);
    const record = {
      id: `w:${sn}`, watcherId: 'w', severity: 2 as const, devicesn: sn, deviceid: 'd', region: 'R', location: 'L', room: 'A',
      raisedAt: iso(Date.now() - 3 * HOUR), clearedAt, reason: 'resolved' as const, durationSeconds: 3600, notified: { raised: [], cleared: [] },
    };
    await alarmHistory.write(record, Math.floor(Date.now() / 1000) - 60);
    expect((await alarmHistory.query({ devicesn: sn, from: iso(0), to: iso(Date.now()) }, 10)).items).toEqual([]);
    await alarmHistory.write(record, Math.floor(Date.now() / 1000) + 60);
    expect((await alarmHistory.query({ devicesn: sn, from: iso(0), to: iso(Date.now()) }, 10)).items).toEqual([record]);
  });

  it('a run cut short after a clear writes the history on the next run, exactly once', async () => {
    const s = await scenario();
    await s.set(false);
    await evaluate();
    const [open] = (await alarms.open()).filter((a) => a.devicesn === s.sn);
    const clearedAt = new Date().toISOString();
    expect(await alarms.clear(open!, clearedAt, 'resolved', historyExpiry(clearedAt))).toBe(true);
    expect((await alarms.awaitingHistory()).map((a) => a.devicesn)).toContain(s.sn);
    // the pair cannot open again before its history is written
    await s.set(false);
    expect(await evaluate()).toMatchObject({ complete: true });
    expect((await alarms.awaitingHistory()).map((a) => a.devicesn)).not.toContain(s.sn);
    const { items } = await alarmHistory.query({ devicesn: s.sn, from: iso(0), to: iso(Date.now() + HOUR) }, 10);
    expect(items).toEqual([expect.objectContaining({ clearedAt })]);
  });
});

describe('silences repository', () => {
  const make = async (startsIn: number, endsIn: number) => {
    const now = Date.now();
    const silence = {
      id: randomUUID(), matchers: { room: unique('room') }, startsAt: iso(now + startsIn), endsAt: iso(now + endsIn),
      comment: 'c', createdBy: 'api-key', createdAt: iso(now),
    };
    return silences.create(silence, historyExpiry(silence.endsAt));
  };

  it('lists active and future silences, adds expired ones on request, ends one early and keeps it', async () => {
    const active = await make(-HOUR, HOUR);
    const future = await make(HOUR, 2 * HOUR);
    const expired = await make(-2 * HOUR, -HOUR);
    const current = (await silences.current(new Date().toISOString())).map((s) => s.id);
    expect(current).toEqual(expect.arrayContaining([active.id, future.id]));
    expect(current).not.toContain(expired.id);
    expect((await silences.all()).map((s) => s.id)).toEqual(expect.arrayContaining([active.id, future.id, expired.id]));

    const now = new Date().toISOString();
    const ended = await silences.end(future.id, now);
    expect(ended).toMatchObject({ startsAt: now, endsAt: now, endedAt: now });
    expect((await silences.current(iso(Date.now() + 1))).map((s) => s.id)).not.toContain(future.id);
    expect(await silences.get(future.id)).toEqual(ended);
    expect(await silences.end(expired.id, now)).toEqual(expired);
    await expect(silences.get(randomUUID())).rejects.toBeInstanceOf(NotFound);
  });
});
