import { DeleteCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, describe, expect, it } from 'vitest';
import { fullPass } from '#lib/alarms/engine/fullPass';
import { queuePass } from '#lib/alarms/engine/queuePass';
import { outboxMailer } from '#lib/adapters/mail';
import { transitionNotice } from '#lib/notify/pure/notice';
import type { Mail } from '#lib/notify/mail/types';
import * as alarmHistory from '#lib/alarms/repository/alarmHistory';
import * as alarms from '#lib/alarms/repository/alarms';
import { doc, dynamo, tableName } from '#lib/store/client';
import * as deliveries from '#lib/notify/repository/deliveries';
import { devices } from '#lib/devices/repository/devices';
import { evaluationQueue } from '#lib/alarms/repository/evaluationQueue';
import { syncFingerprints } from '#lib/inventory/repository/fingerprints';
import * as outbox from '#lib/notify/mail/repository';
import * as watchers from '#lib/watchers/repository';
import { countsIn } from '#lib/devices/counts';
import { syncDevices } from '#lib/inventory/sync';
import { device, fixed, offlineWatcher, unique } from '../support/fleet';
import { watchingRequests } from '../support/requests';
import { ALARM_INDEX, AlarmEntity, alarmPartition, HistoryByPlaceEntity, historyPk, QUEUE } from '#lib/alarms/entities';
import { ROOMS } from '#lib/rollups/entities';
import { DeliveryEntity, deliveryDueSk } from '#lib/notify/entities';
import { migrate, older } from '../../scripts/migrate';

const passOptions = () => ({ mailer: outboxMailer(), deadline: Date.now() + 60_000 });
const mailsTo = async (email: string) => (await outbox.list(email, {})) as Mail[];
const regionStatus = async (region: string) => countsIn({ regionName: region, locationName: 'all', roomName: 'all' });
const stored = async (watcherId: string, devicesn: string) =>
  (await doc.send(new GetCommand({ TableName: tableName(), Key: AlarmEntity.key({ watcherId, devicesn }), ConsistentRead: true }))).Item;

/** Counts the write requests (and the items they carry) the client sends while `run` runs. */
const writesDuring = async (run: () => Promise<unknown>): Promise<{ requests: number; updates: number; raiseUpdates: number; batchItems: number }> => {
  const seen = { requests: 0, updates: 0, raiseUpdates: 0, batchItems: 0 };
  await watchingRequests((command, input) => {
    if (command === 'UpdateItemCommand' || command === 'PutItemCommand') {
      seen.requests++;
      seen.updates++;
      const { ConditionExpression, Key } = input as { ConditionExpression?: string; Key?: { PK?: unknown } };
      if (String(Key?.PK ?? '').startsWith(alarmPartition('')) && ConditionExpression?.includes('attribute_not_exists(PK)')) seen.raiseUpdates++;
    } else if (command === 'BatchWriteItemCommand') {
      seen.requests++;
      const items = (input as { RequestItems: Record<string, unknown[]> }).RequestItems;
      seen.batchItems += Object.values(items).reduce((n, list) => n + list.length, 0);
    }
  }, run);
  return seen;
};

const home = process.env.SHARDS;
afterEach(() => {
  if (home === undefined) delete process.env.SHARDS;
  else process.env.SHARDS = home;
});

describe('storms', () => {
  it('raises 120 alarms in batches, each once with one notice, every room right, and a replay writes nothing', async () => {
    const region = unique('S');
    const email = `${unique('ops')}@example.com`;
    let fleet = Array.from({ length: 150 }, (_, i) => device(region, `${region}-${i}`, `Room ${i % 10}`, true));
    await syncDevices(fixed(() => fleet));
    const id = await watchers.create(offlineWatcher(region, email));
    await fullPass(passOptions());
    await queuePass(passOptions());

    fleet = fleet.map((d, i) => (i < 120 ? device(region, d.devicesn, d.details.room, false) : d));
    await syncDevices(fixed(() => fleet));
    let summary!: Awaited<ReturnType<typeof queuePass>>;
    const writes = await writesDuring(async () => (summary = await queuePass(passOptions())));
    expect(summary).toMatchObject({ raised: 120, roomsRecomputed: 10, complete: true });
    // the raises went in BatchWriteItem requests, not one conditional write each
    expect(writes.raiseUpdates).toBe(0);
    expect(writes.batchItems).toBeGreaterThanOrEqual(240);
    expect(await regionStatus(region)).toMatchObject({ rooms: 10, Major: 10 });
    // whole device items in batches: their rooms are marked for the next sync, which compares and unmarks them
    const marked = async () => [...(await syncFingerprints.dirtyRooms()).keys()].filter((room) => room.startsWith(`${region}#`));
    expect(await marked()).toHaveLength(10);
    expect(await syncDevices(fixed(() => fleet))).toMatchObject({ upserted: 0 });
    expect(await marked()).toEqual([]);
    for (const i of [0, 57, 119]) {
      const item = await stored(id, `${region}-${i}`);
      expect(item).toMatchObject({ state: 'firing', severity: 2, notified: { raised: [email] }, GSI1PK: expect.stringMatching(new RegExp(`^${ALARM_INDEX.firing}#`)) });
      expect(item?.pendingNotices).toBeUndefined();
      expect(item?.GSI2PK).toBeUndefined();
    }
    const mails = await mailsTo(email);
    expect(mails).toHaveLength(1);
    expect((await evaluationQueue.list()).filter((e) => e.kind === 'device' && e.devicesn.startsWith(region))).toEqual([]);

    // the same state again (a replay, a re-queued device): nothing raised, nothing mailed twice
    const again = await Promise.all(fleet.slice(0, 120).map(async (d) => ({ devicesn: d.devicesn, device: await devices.get(d.devicesn), alarmWatchers: 'any' as const })));
    await evaluationQueue.addDevices(again);
    expect(await queuePass(passOptions())).toMatchObject({ raised: 0, cleared: 0, complete: true });
    expect(await mailsTo(email)).toHaveLength(1);
    expect((await fullPass(passOptions()))).toMatchObject({ raised: 0, cleared: 0 });
  });

  it('keeps the condition where a batch put could lose something: history not yet written, a notice not yet collected, an open alarm', async () => {
    const region = unique('S');
    const email = `${unique('ops')}@example.com`;
    const id = await watchers.create(offlineWatcher(region, email));
    const base = { watcherId: id, deviceid: 'x', severity: 2 as const, region, location: 'London', room: 'Room 1', state: 'firing' as const, notify: { sendEmail: true, emails: [email] } };
    const at = new Date().toISOString();
    const alarm = (sn: string) => ({ ...base, devicesn: `${region}-${sn}`, raisedAt: at });
    const notice = (sn: string) => ({ ...transitionNotice('raised', alarm(sn), base.notify, at, []).notice!, id: `n-${sn}` });

    // a: cleared, history not written (still under ALARMS#HISTORY); b: cleared with a notice not collected; c: open
    await alarms.raise(alarm('a'));
    await alarms.clear(alarm('a'), at, 'resolved', 0);
    await alarms.raise(alarm('b'));
    await alarms.clear(alarm('b'), at, 'resolved', 0, notice('b-cleared'));
    await doc.send(new UpdateCommand({ TableName: tableName(), Key: AlarmEntity.key({ watcherId: id, devicesn: `${region}-b` }), UpdateExpression: 'REMOVE GSI1PK, GSI1SK' }));
    await alarms.raise(alarm('c'));
    const later = new Date(Date.now() + 1000).toISOString();
    const again = (sn: string) => ({ alarm: { ...alarm(sn), raisedAt: later }, notice: notice(`${sn}-raised`), delivery: [email] });

    const raised = await alarms.raiseAll([again('a'), again('b'), again('c'), again('d')], () => true);
    expect(raised).toEqual([false, true, false, true]);
    expect(await stored(id, `${region}-a`)).toMatchObject({ state: 'cleared', GSI1PK: expect.stringMatching(new RegExp(`^${ALARM_INDEX.history}#`)) });
    // b's cleared notice is kept: the raise's notice is appended after it
    expect((await stored(id, `${region}-b`))?.pendingNotices).toEqual([expect.objectContaining({ id: 'n-b-cleared' }), expect.objectContaining({ id: 'n-b-raised' })]);
    expect(await stored(id, `${region}-c`)).toMatchObject({ state: 'firing', raisedAt: at });
    expect(await stored(id, `${region}-d`)).toMatchObject({ state: 'firing', raisedAt: later, pendingNotices: [expect.objectContaining({ id: 'n-d-raised' })] });
    // nothing after the budget: no batch starts once inTime() is false
    expect(await alarms.raiseAll([again('e')], () => false)).toEqual([false]);
    expect(await stored(id, `${region}-e`)).toBeUndefined();
    // made-up alarms: leave nothing for the next tests' notifier
    for (const sn of ['a', 'b', 'c', 'd']) await doc.send(new DeleteCommand({ TableName: tableName(), Key: AlarmEntity.key({ watcherId: id, devicesn: `${region}-${sn}` }) }));
  });
});

/** Fails the room writes after the first `pass` of them, until healed (a run dying in the middle of its rooms). */
const failRoomWritesAfter = (pass: number): (() => void) => {
  let seen = 0;
  const name = `fail-rooms-${Math.random()}`;
  dynamo.middlewareStack.add(
    (next) => async (args) => {
      // DocumentClient commands reach this step with their keys as plain strings
      const input = args.input as { Key?: { PK?: unknown }; Item?: { PK?: unknown } };
      if (String(input.Key?.PK ?? input.Item?.PK ?? '').startsWith(`${ROOMS.byRegion}#`) && ++seen > pass) throw Object.assign(new Error('socket timed out'), { name: 'TimeoutError' });
      return next(args);
    },
    { step: 'initialize', name },
  );
  return () => dynamo.middlewareStack.remove(name);
};

describe('a run that dies in the middle of its rooms', () => {
  it.each([0, 3])('after %i room writes: the next run recomputes those rooms (no room moved twice, none left behind)', async (pass) => {
    const region = unique('C');
    const email = `${unique('ops')}@example.com`;
    let fleet = Array.from({ length: 30 }, (_, i) => device(region, `${region}-${i}`, `Room ${i % 6}`, true));
    await syncDevices(fixed(() => fleet));
    await watchers.create(offlineWatcher(region, email));
    await fullPass(passOptions());
    await queuePass(passOptions());

    fleet = fleet.map((d, i) => (i < 12 ? device(region, d.devicesn, d.details.room, false) : d));
    await syncDevices(fixed(() => fleet));
    const heal = failRoomWritesAfter(pass);
    await expect(queuePass(passOptions())).rejects.toThrow();
    heal();
    // the work stays queued, marked as begun
    const left = (await evaluationQueue.list()).filter((e) => e.kind === 'device' && e.devicesn.startsWith(region));
    expect(left).toHaveLength(12);
    expect(left.every((e) => e.kind === 'device' && e.claimed !== undefined)).toBe(true);

    expect(await queuePass(passOptions())).toMatchObject({ raised: 0, complete: true });
    expect(await regionStatus(region)).toMatchObject({ rooms: 6, Major: 6, OK: 0 });
    expect(await mailsTo(email)).toHaveLength(1);
    expect((await evaluationQueue.list()).filter((e) => e.kind === 'device' && e.devicesn.startsWith(region))).toEqual([]);

    // every room counted each offline device once: all back online, every room is OK again
    fleet = fleet.map((d) => device(region, d.devicesn, d.details.room, true));
    await syncDevices(fixed(() => fleet));
    expect(await queuePass(passOptions())).toMatchObject({ cleared: 12, complete: true });
    expect(await regionStatus(region)).toMatchObject({ rooms: 6, Major: 0, OK: 6 });
    expect(await fullPass(passOptions())).toMatchObject({ raised: 0, cleared: 0, roomsRecomputed: 0 });
  });
});

describe('the evaluation queue', () => {
  it('folds devices queued together into a few items; the newest entry of a device wins; done removes them whole', async () => {
    const region = unique('Q');
    const work = Array.from({ length: 200 }, (_, i) => ({ devicesn: `${region}-${i % 150}`, alarmWatchers: [`w${i}`] }));
    let puts = 0;
    const counted = await writesDuring(async () => {
      await evaluationQueue.addDevices(work);
    });
    puts = counted.batchItems;
    // one item per shard and 64 devices, not one per device
    expect(puts).toBeLessThanOrEqual(Number(process.env.SHARDS ?? 8) + Math.ceil(200 / 64));
    const mine = (await evaluationQueue.list()).filter((e) => e.kind === 'device' && e.devicesn.startsWith(`${region}-`));
    expect(mine).toHaveLength(200);
    const newest = new Map<string, (typeof mine)[number]>();
    for (const entry of mine) if (entry.kind === 'device' && (!newest.has(entry.devicesn) || entry.order > (newest.get(entry.devicesn) as typeof entry).order)) newest.set(entry.devicesn, entry);
    expect(newest.size).toBe(150);
    for (let i = 0; i < 50; i++) {
      const entry = newest.get(`${region}-${i}`);
      expect(entry?.kind === 'device' && entry.alarmWatchers).toEqual([`w${i + 150}`]);
    }
    await evaluationQueue.remove(mine);
    expect((await evaluationQueue.list()).filter((e) => e.kind === 'device' && e.devicesn.startsWith(`${region}-`))).toEqual([]);
  });

  it('reads one-device items stored before folding once `npm run migrate` folded them', async () => {
    const region = unique('Q');
    const d = device(region, `${region}-1`, 'Room 1', false);
    await syncDevices(fixed(() => [d]));
    const stored_ = await devices.get(d.devicesn);
    await doc.send(
      new PutCommand({
        TableName: tableName(),
        Item: { PK: `${QUEUE}#0`, SK: older.queuedDeviceSk(d.devicesn, '000000001.0.abc'), type: 'QueuedEvaluation', kind: 'device', devicesn: d.devicesn, device: stored_, alarmWatchers: [], queuedAt: 1 },
      }),
    );
    await migrate();
    const entry = (await evaluationQueue.list()).find((e) => e.kind === 'device' && e.devicesn === d.devicesn && e.key.PK === `${QUEUE}#0`);
    expect(entry).toMatchObject({ kind: 'device', devicesn: d.devicesn, device: { devicesn: d.devicesn }, alarmWatchers: [] });
    await evaluationQueue.remove([entry!]);
  });
});

describe('due deliveries over shards', () => {
  it('answers the earliest due deliveries of every shard, one stored under the unsharded key once migrated, in order', async () => {
    process.env.SHARDS = '4';
    const tag = unique('due');
    const base = Date.parse('2001-01-01T00:00:00.000Z');
    const draft = (i: number) =>
      ({
        id: `${tag}-${String(i).padStart(2, '0')}`,
        digest: { type: 'alarms.raised' } as never,
        target: { kind: 'email', to: ['a@example.com'] },
        status: 'pending',
      }) as never;
    for (let i = 0; i < 30; i++) await deliveries.createIfAbsent(draft(i), new Date(base + (29 - i) * 1000).toISOString());
    // one stored before the shards, under the old key, due earliest
    await doc.send(
      new PutCommand({
        TableName: tableName(),
        Item: { ...DeliveryEntity.key(`${tag}-old`), type: 'Delivery', deliveryId: `${tag}-old`, status: 'pending', attempts: 0, digest: {}, target: {}, createdAt: '2000-12-31T00:00:00.000Z', GSI2PK: older.dueKey, GSI2SK: deliveryDueSk('2000-12-31T00:00:00.000Z', `${tag}-old`) },
      }),
    );
    await migrate();
    const shards = new Set<string>();
    for (let i = 0; i < 30; i++) {
      const { Item } = await doc.send(new GetCommand({ TableName: tableName(), Key: DeliveryEntity.key(`${tag}-${String(i).padStart(2, '0')}`) }));
      shards.add(String(Item?.GSI2PK));
    }
    expect(shards.size).toBeGreaterThan(1);
    const due = (await deliveries.due('2001-01-01T00:01:00.000Z', 10)).filter((d) => d.deliveryId.startsWith(tag));
    expect(due.map((d) => d.deliveryId)).toEqual([`${tag}-old`, ...Array.from({ length: 9 }, (_, i) => `${tag}-${String(29 - i).padStart(2, '0')}`)]);
  });
});

describe('alarm history over shards', () => {
  it('pages a region and the whole fleet newest first across the shards, a record stored under the unsharded keys once migrated, cursor after cursor', async () => {
    process.env.SHARDS = '4';
    const region = unique('H');
    const record = (i: number) => ({
      id: `w${i % 3}:${region}-${i}`,
      watcherId: `w${i % 3}`,
      severity: 2 as const,
      devicesn: `${region}-${i}`,
      deviceid: `id-${i}`,
      region,
      location: 'London',
      room: `Room ${i % 4}`,
      raisedAt: '2003-01-01T00:00:00.000Z',
      clearedAt: new Date(Date.parse('2003-01-02T00:00:00.000Z') + i * 60_000).toISOString(),
      reason: 'resolved' as const,
      durationSeconds: 60,
      notified: { raised: [], cleared: [] },
    });
    const expires = Math.floor(Date.now() / 1000) + 3600;
    for (let i = 0; i < 23; i++) await alarmHistory.write(record(i), expires);
    // one record stored before the keys were sharded
    const old = { ...record(23), id: `w2:${region}-old`, devicesn: `${region}-old` };
    const sk = HistoryByPlaceEntity.key(old).SK;
    await doc.send(
      new PutCommand({
        TableName: tableName(),
        Item: { PK: historyPk.location({ region, location: 'London' }), SK: sk, GSI1PK: historyPk.region(region), GSI1SK: sk, GSI2PK: historyPk.all(), GSI2SK: sk, type: 'AlarmHistory', ...old, expiresAt: expires },
      }),
    );
    await migrate();
    const { Items } = await doc.send(new QueryCommand({ TableName: tableName(), KeyConditionExpression: 'PK = :pk', ExpressionAttributeValues: { ':pk': historyPk.location({ region, location: 'London' }) } }));
    expect(new Set(Items!.map((item) => item.GSI1PK)).size).toBeGreaterThan(2);

    const window = { from: '2003-01-02T00:03:00.000Z', to: '2003-01-02T00:23:00.000Z' };
    const expected = [old.devicesn, ...Array.from({ length: 20 }, (_, i) => `${region}-${22 - i}`)].slice(0, 21);
    for (const filter of [{ region, ...window }, window]) {
      const seen: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await alarmHistory.query(filter, 4, cursor);
        expect(page.items.length).toBeLessThanOrEqual(4);
        seen.push(...page.items.filter((r) => r.region === region).map((r) => r.devicesn));
        cursor = page.nextCursor ?? undefined;
      } while (cursor);
      expect(seen).toEqual(expected);
    }
    // a cursor of one question is refused by another
    const first = await alarmHistory.query({ region, ...window }, 4);
    await expect(alarmHistory.query(window, 4, first.nextCursor!)).rejects.toThrow();
  });
});
