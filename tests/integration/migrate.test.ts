import { randomUUID } from 'node:crypto';
import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import * as alarmHistory from '#lib/alarms/repository/alarmHistory';
import * as alarms from '#lib/alarms/repository/alarms';
import * as deliveries from '#lib/notify/repository/deliveries';
import { evaluationQueue } from '#lib/alarms/repository/evaluationQueue';
import { repeats } from '#lib/notify/repository/markers';
import * as users from '#lib/access/repository/users';
import * as watchers from '#lib/watchers/repository';
import { doc, tableName } from '#lib/store/client';
import { UserEntity } from '#lib/access/entities';
import { AlarmEntity, alarmIndexKeys, HistoryByPlaceEntity, historyPk, QUEUE } from '#lib/alarms/entities';
import { DeliveryEntity, deliveryDueSk } from '#lib/notify/entities';
import { get, type Item } from '#lib/store/table';
import { offlineWatcher } from '../support/fleet';
import { migrate, older } from '../../scripts/migrate';

const unique = (prefix: string) => `${prefix}-${randomUUID().slice(0, 8)}`;
const putItem = (Item: Item) => doc.send(new PutCommand({ TableName: tableName(), Item }));

/** One item of each older shape, all of one test run (`tag` in every key). */
const storeOlderItems = async (tag: string) => {
  const alarm = { watcherId: `w-${tag}`, devicesn: `${tag}-1`, deviceid: 'd1', severity: 2 as const, region: tag, location: 'London', room: 'A', raisedAt: '2001-01-01T00:00:00.000Z' };
  await putItem({ ...AlarmEntity.key(alarm), type: 'Alarm', ...alarm, state: older.firingState, notify: { sendEmail: false, emails: [] }, ...alarmIndexKeys.firing(alarm) });
  await putItem({ PK: `${QUEUE}#0`, SK: older.queuedDeviceSk(`${tag}-2`, '000000001.0.abc'), type: 'QueuedEvaluation', kind: 'device', devicesn: `${tag}-2`, alarmWatchers: 'any', queuedAt: 1 });
  const record = { id: `w:${tag}-3`, watcherId: 'w', severity: 2, devicesn: `${tag}-3`, deviceid: 'd3', region: tag, location: 'London', room: 'A', raisedAt: '2001-01-01T00:00:00.000Z', clearedAt: '2001-01-01T00:01:00.000Z', reason: 'resolved', durationSeconds: 60, notified: { raised: [], cleared: [] } };
  const sk = HistoryByPlaceEntity.key(record as never).SK;
  const expiresAt = Math.floor(Date.now() / 1000) + 3600;
  await putItem({ PK: historyPk.location(record), SK: sk, GSI1PK: historyPk.region(tag), GSI1SK: sk, GSI2PK: historyPk.all(), GSI2SK: sk, type: 'AlarmHistory', ...record, expiresAt });
  await putItem({ ...DeliveryEntity.key(`${tag}-4`), type: 'Delivery', deliveryId: `${tag}-4`, status: 'pending', attempts: 0, digest: {}, target: {}, createdAt: '2000-01-01T00:00:00.000Z', GSI2PK: older.dueKey, GSI2SK: deliveryDueSk('2000-01-01T00:00:00.000Z', `${tag}-4`) });
  await users.create({ username: `${tag}-5`, email: 'old@example.com', name: 'Old', role: 'viewer' }, 'hash');
  await doc.send(new UpdateCommand({ TableName: tableName(), Key: UserEntity.key(`${tag}-5`), UpdateExpression: 'REMOVE incarnation' }));
  // repeat markers holding a slot index: of a watcher repeating hourly, and of a watcher that is gone
  const repeating = await watchers.create(offlineWatcher(tag, 'ops@example.com', { repeatIntervalSeconds: 3600 }), `w-${tag}-6`);
  await repeats.done(repeating, 480_000, '2024-10-04T00:00:00.000Z');
  await repeats.done(`w-${tag}-7`, 480_000, '2024-10-04T00:00:00.000Z');
  return { alarm, record, repeating };
};

const ofRun = (tag: string) => (item: Item) => JSON.stringify(item).includes(tag);

describe('npm run migrate', () => {
  it('brings every older shape to today’s, which the repositories then read as they read new items', async () => {
    const tag = unique('M');
    const { alarm, record, repeating } = await storeOlderItems(tag);
    expect(await migrate(ofRun(tag))).toEqual({ firing: 1, folded: 1, historyKeys: 1, dueKey: 1, incarnation: 1, repeatSlot: 2 });

    expect(await alarms.openAmong([alarm])).toMatchObject([{ watcherId: alarm.watcherId, state: 'firing' }]);
    expect(await alarms.firingOf(alarm.watcherId)).toHaveLength(1);
    expect((await evaluationQueue.list()).filter((e) => e.kind === 'device' && e.devicesn === `${tag}-2`)).toMatchObject([{ alarmWatchers: 'any', queuedAt: 1 }]);
    const window = { from: '2001-01-01T00:00:00.000Z', to: '2001-01-02T00:00:00.000Z' };
    expect((await alarmHistory.query({ region: tag, ...window }, 10)).items).toMatchObject([{ id: record.id }]);
    expect((await deliveries.due('2000-01-01T00:01:00.000Z', 100)).map((d) => d.deliveryId)).toContain(`${tag}-4`);
    expect((await users.credentials(`${tag}-5`))?.incarnation).toMatch(/^[0-9a-f-]{36}$/);
    expect(await repeats.lastSlot(repeating)).toBe(480_000 * 3600 * 1000);
    expect(await repeats.lastSlot(`w-${tag}-7`)).toBeUndefined();
  });

  it('is idempotent: a second run changes nothing', async () => {
    const tag = unique('M');
    const { alarm } = await storeOlderItems(tag);
    await migrate(ofRun(tag));
    const after = await get(AlarmEntity.key(alarm), { consistent: true });
    const user = await users.credentials(`${tag}-5`);
    expect(await migrate(ofRun(tag))).toEqual({ firing: 0, folded: 0, historyKeys: 0, dueKey: 0, incarnation: 0, repeatSlot: 0 });
    expect(await get(AlarmEntity.key(alarm), { consistent: true })).toEqual(after);
    expect(await users.credentials(`${tag}-5`)).toEqual(user);
  });
});
