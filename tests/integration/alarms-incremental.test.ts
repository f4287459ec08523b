import { describe, expect, it } from 'vitest';
import { fullPass } from '#lib/alarms/engine/fullPass';
import { queuePass } from '#lib/alarms/engine/queuePass';
import { runEvaluation } from '#lib/alarms/engine/run';
import { outboxMailer } from '#lib/adapters/mail';
import type { Mail } from '#lib/notify/mail/types';
import * as alarms from '#lib/alarms/repository/alarms';
import { dynamo } from '#lib/store/client';
import { devices } from '#lib/devices/repository/devices';
import { evaluationQueue } from '#lib/alarms/repository/evaluationQueue';
import { intervals } from '#lib/config/intervals/repository';
import * as outbox from '#lib/notify/mail/repository';
import * as watchers from '#lib/watchers/repository';
import { countsIn } from '#lib/devices/counts';
import type { DeviceProvider } from '#lib/inventory/provider/index';
import { refreshDevice } from '#lib/inventory/refresh';
import { syncDevices } from '#lib/inventory/sync';
import type { ProviderDevice } from '#lib/devices/types';
import { INTERVAL_FIELDS, type Intervals } from '#lib/config/intervals/types';
import { injectFault } from '../support/faults';
import { device, offlineWatcher, unique } from '../support/fleet';
import { watchingRequests } from '../support/requests';
import { deviceSk, ROOM_PARTITION, SERIALS } from '#lib/devices/entities';
import { ALARM_INDEX } from '#lib/alarms/entities';

// A sync makes the inventory equal to its fleet, so each test syncs the whole fleet it needs.
const fixed = (fleet: ProviderDevice[]): DeviceProvider => ({
  listDevices: async () => fleet,
  getDevice: async (sn) => fleet.find((d) => d.devicesn === sn),
});
const passOptions = () => ({ mailer: outboxMailer(), deadline: Date.now() + 30_000 });
const mailsTo = async (email: string) => (await outbox.list(email, {})) as Mail[];
const regionStatus = async (region: string) => countsIn({ regionName: region, locationName: 'all', roomName: 'all' });

/** Counts the Queries the client sends to the inventory index (GSI2 `SERIALS#…`) while `run` runs. */
const inventoryReads = async (run: () => Promise<unknown>): Promise<number> => {
  let reads = 0;
  await watchingRequests((_command, input) => {
    const { IndexName, ExpressionAttributeValues } = input as { IndexName?: string; ExpressionAttributeValues?: Record<string, { S?: string }> };
    if (IndexName === 'GSI2' && Object.values(ExpressionAttributeValues ?? {}).some((v) => v.S?.startsWith(`${SERIALS}#`))) reads++;
  }, run);
  return reads;
};

describe('incremental evaluation', () => {
  it('follows the devices a sync changed, without reading the inventory', async () => {
    const region = unique('R');
    const email = `${unique('ops')}@example.com`;
    const fleet = Array.from({ length: 30 }, (_, i) => device(region, `${region}-${i}`, `Room ${i % 5}`, true));
    await syncDevices(fixed(fleet));
    await watchers.create(offlineWatcher(region, email));
    await fullPass(passOptions());
    await queuePass(passOptions());

    fleet[3] = device(region, `${region}-3`, 'Room 3', false);
    await syncDevices(fixed(fleet));
    let summary!: Awaited<ReturnType<typeof queuePass>>;
    expect(await inventoryReads(async () => (summary = await queuePass(passOptions())))).toBe(0);
    expect(summary).toMatchObject({ raised: 1, cleared: 0, roomsRecomputed: 1, mailed: 1, complete: true });
    expect((await devices.get(`${region}-3`)).alarmSeverity).toBe(2);
    expect(await regionStatus(region)).toMatchObject({ rooms: 5, Major: 1, OK: 4 });
    expect(await mailsTo(email)).toHaveLength(1);
    expect((await evaluationQueue.list()).filter((e) => e.kind === 'device' && e.devicesn.startsWith(region))).toEqual([]);

    // the reconciliation finds nothing left to do
    expect(await fullPass(passOptions())).toMatchObject({ raised: 0, cleared: 0, updated: 0, mailed: 0 });
  });

  it('writes a few changed devices one conditional update each, leaving the next sync no room to re-read', async () => {
    const region = unique('R');
    const fleet = Array.from({ length: 6 }, (_, i) => device(region, `${region}-${i}`, `Room ${i}`, true));
    await syncDevices(fixed(fleet));
    await watchers.create(offlineWatcher(region, `${unique('ops')}@example.com`));
    await queuePass(passOptions());
    fleet[2] = device(region, `${region}-2`, 'Room 2', false);
    await syncDevices(fixed(fleet));
    const seen = { deviceUpdates: 0, devicePuts: 0, dirtyMarks: 0 };
    await watchingRequests((command, input) => {
      const { Key, RequestItems } = input as { Key?: { PK?: string }; RequestItems?: Record<string, { PutRequest?: { Item?: { type?: string } } }[]> };
      if (command === 'UpdateItemCommand' && Key?.PK?.startsWith(ROOM_PARTITION)) seen.deviceUpdates++;
      for (const request of Object.values(RequestItems ?? {}).flat()) {
        if (request.PutRequest?.Item?.type === 'Device') seen.devicePuts++;
        if (request.PutRequest?.Item?.type === 'SyncDirtyRoom') seen.dirtyMarks++;
      }
    }, async () => expect(await queuePass(passOptions())).toMatchObject({ raised: 1, complete: true }));
    expect(seen).toEqual({ deviceUpdates: 1, devicePuts: 0, dirtyMarks: 0 });
    expect((await devices.get(`${region}-2`)).alarmSeverity).toBe(2);
    expect(await syncDevices(fixed(fleet))).toMatchObject({ upserted: 0, roomsRead: 0 });
  });

  it('reads for new notices and history records only after a pass that wrote some', async () => {
    const region = unique('R');
    const fleet = [device(region, `${region}-q`, 'Q', true)];
    await syncDevices(fixed(fleet));
    // nobody to tell: its raise writes no notice
    await watchers.create(offlineWatcher(region, '', { sendEmail: false, emails: [] }));
    await queuePass(passOptions());
    const reads = async (run: () => Promise<unknown>) => {
      const seen = { notices: 0, history: 0 };
      await watchingRequests((command, input) => {
        if (command !== 'QueryCommand') return;
        const values = JSON.stringify(input.ExpressionAttributeValues ?? {});
        if (values.includes(`"${ALARM_INDEX.notices}#`)) seen.notices++;
        if (values.includes(`"${ALARM_INDEX.history}#`)) seen.history++;
      }, run);
      return seen;
    };
    const shards = Number(process.env.SHARDS ?? 8);
    fleet[0] = device(region, `${region}-q`, 'Q', false);
    await syncDevices(fixed(fleet));
    // a raise without a notice: the leftovers are read once, before the pass's own work
    expect(await reads(async () => expect(await queuePass(passOptions())).toMatchObject({ raised: 1, mailed: 0 }))).toEqual({ notices: shards, history: shards });
    fleet[0] = device(region, `${region}-q`, 'Q', true);
    await syncDevices(fixed(fleet));
    // a clear: its history record is written in the same pass
    expect(await reads(async () => expect(await queuePass(passOptions())).toMatchObject({ cleared: 1 }))).toEqual({ notices: shards, history: 2 * shards });
    expect(await alarms.awaitingHistory()).toEqual([]);
  });

  it('keeps what a refresh stored when a sync wrote an older state between its read and its write', async () => {
    const region = unique('R');
    const sn = `${region}-x`;
    await syncDevices(fixed([device(region, sn, 'X', false)]));
    await watchers.create(offlineWatcher(region, `${unique('ops')}@example.com`));
    await queuePass(passOptions());
    expect(await alarms.list({ region }, {})).toHaveLength(1);
    // the refresh reads the device offline; a sync from an older provider list (online) queues
    // and writes it just before the refresh's own device write lands
    let raced = false;
    const name = `race-${region}`;
    dynamo.middlewareStack.add(
      (next, context) => async (args) => {
        // the refresh's device write: an update of the fields the provider reports (or a put when it moved)
        type Value = { S?: string } | string | undefined;
        const text = (value: Value) => (typeof value === 'string' ? value : value?.S);
        const input = args.input as { Item?: { devicesn?: Value }; Key?: { SK?: Value }; UpdateExpression?: string };
        const command = (context as { commandName?: string }).commandName;
        const write =
          (command === 'PutItemCommand' && text(input.Item?.devicesn) === sn) ||
          (command === 'UpdateItemCommand' && text(input.Key?.SK) === deviceSk(sn) && !String(input.UpdateExpression).includes('#severity'));
        if (!raced && write) {
          raced = true;
          await syncDevices(fixed([device(region, sn, 'X', true)]));
        }
        return next(args);
      },
      { step: 'initialize', name },
    );
    try {
      await refreshDevice(fixed([device(region, sn, 'X', false)]), sn);
    } finally {
      dynamo.middlewareStack.remove(name);
    }
    expect(raced).toBe(true);
    expect((await devices.get(sn)).status.connected).toBe(false);
    await queuePass(passOptions());
    // the engine evaluated what is stored (offline): the alarm stays, and the room stays Major
    expect(await alarms.list({ region }, {})).toHaveLength(1);
    expect(await regionStatus(region)).toMatchObject({ Major: 1 });
  });

  it('clears the alarm of a device that came back, and of one that vanished', async () => {
    const region = unique('R');
    const fleet = [device(region, `${region}-a`, 'A', false), device(region, `${region}-b`, 'B', false)];
    await syncDevices(fixed(fleet));
    await watchers.create(offlineWatcher(region, `${unique('ops')}@example.com`));
    await queuePass(passOptions());
    expect(await alarms.list({ region }, {})).toHaveLength(2);
    await syncDevices(fixed([device(region, `${region}-a`, 'A', true)]));
    expect(await queuePass(passOptions())).toMatchObject({ raised: 0, cleared: 2 });
    expect(await alarms.list({ region }, {})).toEqual([]);
    expect(await regionStatus(region)).toMatchObject({ rooms: 1, OK: 1, Major: 0 });
  });

  it('evaluates a refreshed device', async () => {
    const region = unique('R');
    const fleet = [device(region, `${region}-r`, 'A', true)];
    await syncDevices(fixed(fleet));
    await watchers.create(offlineWatcher(region, `${unique('ops')}@example.com`));
    await queuePass(passOptions());
    await refreshDevice(fixed([device(region, `${region}-r`, 'A', false)]), `${region}-r`);
    expect(await queuePass(passOptions())).toMatchObject({ raised: 1 });
    expect(await regionStatus(region)).toMatchObject({ Major: 1 });
  });

  it('evaluates a created, deactivated and deleted watcher alone', async () => {
    const region = unique('R');
    const email = `${unique('ops')}@example.com`;
    await syncDevices(fixed([device(region, `${region}-1`, 'A', false), device(region, `${region}-2`, 'A', true)]));
    await queuePass(passOptions());
    const id = await watchers.create(offlineWatcher(region, email, { severity: 1 }));
    await evaluationQueue.addWatcher(id);
    expect(await queuePass(passOptions())).toMatchObject({ raised: 1, roomsRecomputed: 1 });
    expect(await regionStatus(region)).toMatchObject({ Critical: 1 });

    await watchers.setActive(id, false);
    await evaluationQueue.addWatcher(id);
    expect(await queuePass(passOptions())).toMatchObject({ cleared: 1 });
    expect(await regionStatus(region)).toMatchObject({ Critical: 0, OK: 1 });

    await watchers.setActive(id, true);
    await evaluationQueue.addWatcher(id);
    expect(await queuePass(passOptions())).toMatchObject({ raised: 1 });
    await watchers.remove(id);
    await evaluationQueue.addWatcher(id);
    expect(await queuePass(passOptions())).toMatchObject({ cleared: 1 });
    const texts = (await mailsTo(email)).map((m) => m.text);
    expect(texts).toHaveLength(4);
    expect(texts.filter((t) => t.includes('(watcher inactive)'))).toHaveLength(1);
    expect(texts.filter((t) => t.includes('(watcher deleted)'))).toHaveLength(1);
  });

  it('keeps the work queued when a run dies, and the next run finishes it with one mail', async () => {
    const region = unique('R');
    const email = `${unique('ops')}@example.com`;
    await syncDevices(fixed([device(region, `${region}-1`, 'A', true)]));
    await watchers.create(offlineWatcher(region, email));
    await queuePass(passOptions());
    await syncDevices(fixed([device(region, `${region}-1`, 'A', false)]));
    const heal = injectFault('throttle', 'UpdateCommand', 50);
    await expect(queuePass(passOptions())).rejects.toThrow();
    heal();
    expect((await evaluationQueue.list()).some((e) => e.kind === 'device' && e.devicesn === `${region}-1`)).toBe(true);
    expect(await queuePass(passOptions())).toMatchObject({ raised: 1, complete: true });
    expect(await queuePass(passOptions())).toMatchObject({ raised: 0 });
    expect(await mailsTo(email)).toHaveLength(1);
    expect(await regionStatus(region)).toMatchObject({ Major: 1 });
  });

  it('fires a pending alarm when its time comes, from the pending index alone', async () => {
    const region = unique('R');
    await syncDevices(fixed([device(region, `${region}-1`, 'A', false)]));
    await watchers.create(offlineWatcher(region, `${unique('ops')}@example.com`, { pendingSeconds: 1 }));
    expect(await queuePass(passOptions())).toMatchObject({ pending: 1, raised: 0 });
    await new Promise((resolve) => setTimeout(resolve, 1100));
    let fired!: Awaited<ReturnType<typeof queuePass>>;
    expect(await inventoryReads(async () => (fired = await queuePass(passOptions())))).toBe(0);
    expect(fired).toMatchObject({ raised: 1 });
    expect(await regionStatus(region)).toMatchObject({ Major: 1 });
  });

  it('leaves work that waits for a time until it is due', async () => {
    const region = unique('R');
    await syncDevices(fixed([device(region, `${region}-1`, 'A', false)]));
    await watchers.create(offlineWatcher(region, `${unique('ops')}@example.com`));
    await queuePass(passOptions());
    const later = await evaluationQueue.addDevices([{ devicesn: `${region}-1`, device: await devices.get(`${region}-1`), alarmWatchers: 'any', notBefore: Date.now() + 60_000 }]);
    await queuePass(passOptions());
    expect((await evaluationQueue.list()).map((e) => e.key)).toContainEqual(later[0]!.key);
    await evaluationQueue.remove(later);
  });
});

describe('schedule', () => {
  it('runs the full pass on its slower schedule and the queue on every tick', async () => {
    const every = Object.fromEntries(INTERVAL_FIELDS.map((field) => [field, 60])) as Intervals;
    await intervals.create({ ...every, intervalDeviceWatchers: 1, intervalDeviceWatchersTimeout: 50 });
    const before = process.env.RECONCILE_SECONDS;
    try {
      process.env.RECONCILE_SECONDS = '3600';
      expect(await runEvaluation({ mailer: outboxMailer(), mode: 'forced' })).toMatchObject({ ran: true, summary: { reconciled: true } });
      expect(await runEvaluation({ mailer: outboxMailer(), mode: 'scheduled', tickSeconds: 2 })).toMatchObject({ ran: true, summary: { reconciled: false } });
      process.env.RECONCILE_SECONDS = '0';
      expect(await runEvaluation({ mailer: outboxMailer(), mode: 'scheduled', tickSeconds: 2 })).toMatchObject({ ran: true, summary: { reconciled: true } });
    } finally {
      if (before === undefined) delete process.env.RECONCILE_SECONDS;
      else process.env.RECONCILE_SECONDS = before;
    }
  });
});
