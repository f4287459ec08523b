import { mapConcurrent } from '#lib/shared/concurrency';
import { pause } from '#lib/shared/deadline';
import { deviceNotFound, toDevice, withAlarmFieldsOf, type Device, type Place, type Severity, type StoredDevice } from '#lib/devices/types';
import { badCursor, isKeyString, openCursor, sealCursor } from '#lib/store/cursor';
import { byRoom, DEVICE_ATTRIBUTES, DeviceEntity as Devices, deviceFields, deviceIndexPk, deviceSk, roomId, roomPartition, SERIALS } from '#lib/devices/entities';
import { expr } from '#lib/store/expression';
import { queryPage, type Page } from '#lib/store/paging';
import { allShards, pages, queryAll, queryFirst, queryShards } from '#lib/store/query';
import { BATCH_SIZE, batchGet, batchWrite, deleteRequest, EXISTS, get, NEW, put, putRequest, remove, update, type Item } from '#lib/store/table';
import { syncFingerprints } from '#lib/inventory/repository/fingerprints';
import { sleep } from '#lib/shared/timer';

// Devices in their room's partition; GSI1 by serial number, GSI2 the sharded serial index the sync reads (docs/adr/0128-k-shards-one-hash.md and docs/guide/rules/inventory.md "Room aggregates and room status").
// Batches and single-item writes, no transactions: syncs write the fleet, where one would double the write units and cap a batch at 100 (docs/adr/0550).
const { key: keys, fromItem } = Devices;
const toItem = (device: StoredDevice, now: string): Item => Devices.item(device, deviceFields(device, now));

/** What a read of devices projects: every field the model stores. */
const project = [...DEVICE_ATTRIBUTES];

const openPosition = (query: string, cursor: string): { room: string; sn: string } => {
  const { room, sn, ...rest } = openCursor(query, cursor);
  if (!isKeyString(room) || !isKeyString(sn) || Object.keys(rest).length > 0) throw badCursor();
  return { room, sn };
};

/** Read units a second a full inventory read may take from one index partition (INDEX_READ_RCU_PER_SECOND; docs/guide/rules/inventory.md "Full inventory reads are paced"). */
const indexPace = (): number => {
  const value = Number(process.env.INDEX_READ_RCU_PER_SECOND ?? 1000);
  return Number.isFinite(value) && value > 0 ? value : 1000;
};

const pacedShard = async (pk: string): Promise<Item[]> => {
  const items: Item[] = [];
  const started = Date.now();
  let units = 0;
  for await (const page of pages({ index: 'GSI2', pk, project, capacity: true })) {
    items.push(...page.items);
    units += page.units;
    const wait = started + (units / indexPace()) * 1000 - Date.now();
    // within a run, a wait that would end past its deadline ends the read at once (DeadlineExceeded)
    if (wait > 0) await pause(wait);
  }
  return items;
};

/** The devices a sync's listing read (`serials`) and when it asked for them (ISO 8601). */
export interface ListingObservation {
  at: string;
  serials: ReadonlySet<string>;
}

/** How often `current` looks a device up again when the index named a room the device just left. */
const RELOCATE_ATTEMPTS = 3;

export const devices = {
  /** A device by serial number (GSI1, which may lag behind the table); 404 when unknown (DESIGN D4). */
  async get(devicesn: string): Promise<StoredDevice> {
    const [found] = await devices.find([devicesn]);
    if (!found) throw deviceNotFound(devicesn);
    return found;
  },

  /** The device as the table holds it now: GSI1 for its room, then a consistent read (docs/guide/rules/alarms.md "Writers of a device start from the base item; one severity rule"); 404 when unknown. */
  async current(devicesn: string): Promise<StoredDevice> {
    for (let attempt = 1; ; attempt++) {
      const indexed = await devices.get(devicesn);
      const [stored] = await devices.at([{ devicesn, place: indexed.details }]);
      if (stored) return stored;
      if (attempt === RELOCATE_ATTEMPTS) throw deviceNotFound(devicesn);
      await sleep(200 * attempt);
    }
  },

  /** The stored devices with these serial numbers, wherever they are (GSI1, 16 in flight); unknown ones are left out. */
  async find(serials: readonly string[]): Promise<StoredDevice[]> {
    const found = await mapConcurrent(serials, 16, (devicesn) => queryFirst({ index: 'GSI1', pk: deviceIndexPk(devicesn) }));
    return found.flatMap((item) => (item ? [fromItem(item)] : []));
  },

  /** The devices stored at the given places, read consistently (BatchGetItem, each key once); absent ones are left out. */
  async at(wanted: readonly { devicesn: string; place: Place }[]): Promise<StoredDevice[]> {
    return (await batchGet(wanted.map(({ devicesn, place }) => keys({ devicesn, details: place })), { project, inFlight: 8 })).map(fromItem);
  },

  /** Every device of one room, read consistently: the input of its aggregate. */
  async inRoom(place: Place): Promise<StoredDevice[]> {
    return (await queryAll({ pk: roomPartition(place), consistent: true, project })).map(fromItem);
  },

  async inRooms(places: readonly Place[]): Promise<Device[]> {
    return (await mapConcurrent(places, 16, (place) => devices.inRoom(place))).flat().map(toDevice);
  },

  async page(places: readonly Place[], limit: number, cursor: string | undefined, query: string): Promise<Page<Device>> {
    const sorted = [...places].sort(byRoom);
    const from = cursor ? openPosition(query, cursor) : undefined;
    const found: Item[] = [];
    let last: ReturnType<typeof openPosition> | undefined;
    let more = false;
    for (const place of sorted) {
      const id = roomId(place);
      if (from && id < from.room) continue;
      const after = deviceSk(from && id === from.room ? from.sn : '');
      const { items, nextCursor } = await queryPage({ pk: roomPartition(place), sk: expr('#sk > :after', { after }) }, query, limit - found.length);
      found.push(...items);
      if (items.length > 0) last = { room: id, sn: String(items[items.length - 1]!.devicesn) };
      if (found.length >= limit) {
        more = nextCursor !== null || place !== sorted[sorted.length - 1];
        break;
      }
    }
    return { items: found.map((item) => toDevice(fromItem(item))), nextCursor: more && last ? sealCursor(query, { ...last }) : null };
  },

  /** The whole inventory from the serial index (K shards, each paced): what a full sync and the reconciliation compare against. */
  async index(): Promise<StoredDevice[]> {
    return (await Promise.all(allShards(SERIALS).map(pacedShard))).flat().map(fromItem);
  },

  /** Unique serial numbers, sorted (each shard answers in order; one attribute projected). */
  async serialNumbers(): Promise<string[]> {
    return (await queryShards(SERIALS, { index: 'GSI2', project: ['GSI2SK'] })).map((item) => String(item.GSI2SK)).sort();
  },

  /** The serial numbers of the devices of these rooms, sorted (one Query of each room, one attribute projected): O(devices in them). */
  async serialNumbersIn(places: readonly Place[]): Promise<string[]> {
    const perRoom = await mapConcurrent(places, 16, (place) => queryAll({ pk: roomPartition(place), project: ['devicesn'] }));
    return [...new Set(perRoom.flat().map((item) => String(item.devicesn)))].sort();
  },

  /** The sync's own idempotent upserts and removals (it writes their fingerprints after). */
  async syncWrite(puts: readonly StoredDevice[], deletes: readonly StoredDevice[], observed?: ListingObservation): Promise<void> {
    const now = new Date().toISOString();
    // a device the listing read carries the listing's time as its connectivity observation, so
    // that an older pushed event (a vendor's retry, minutes late) never rewinds what it read
    const item = (device: StoredDevice) => (observed?.serials.has(device.devicesn) ? { ...toItem(device, now), connectivityAt: observed.at } : toItem(device, now));
    await batchWrite([...deletes.map((device) => deleteRequest(keys(device))), ...puts.map((device) => putRequest(item(device)))], { inFlight: 8 });
  },

  /** Requests `writeAll(puts, [])` costs, dirty marks included (docs/guide/rules/alarms.md "The alarm engine picks the cheaper device write"). */
  writeAllRequests(puts: readonly Pick<StoredDevice, 'details'>[]): number {
    const rooms = new Set(puts.map((device) => roomId(device.details))).size;
    return Math.ceil(puts.length / BATCH_SIZE) + 2 * Math.ceil(rooms / BATCH_SIZE) + 2 * rooms;
  },

  /** Idempotent batch of upserts and removals by anyone but the sync (the alarm engine): their rooms' fingerprints are marked dirty. */
  async writeAll(puts: readonly StoredDevice[], deletes: readonly StoredDevice[]): Promise<void> {
    await dirtying([...puts, ...deletes], () => devices.syncWrite(puts, deletes));
  },

  /** Stores one device's whole item (tests, and a device moved to a room where it has no item yet). */
  async put(device: StoredDevice, lastRefresh?: string): Promise<void> {
    await dirtying([device], () => put({ ...toItem(device, new Date().toISOString()), lastRefresh }));
  },

  /** Stores a refresh's report, keeping the engine's alarm fields; a device moved in is put whole with `carried`'s (docs/guide/rules/alarms.md "Writers of a device start from the base item; one severity rule"). */
  async storeReported(device: StoredDevice, lastRefresh: string, carried: Pick<StoredDevice, 'alarmSeverity' | 'alarmWatchers'>): Promise<void> {
    const { PK, SK, alarmSeverity: _severity, alarmWatchers: _watchers, ...fields } = toItem(device, new Date().toISOString());
    await dirtying([device], async () => {
      if (!(await update({ PK: String(PK), SK: String(SK) }, { set: { ...fields, lastRefresh } }, EXISTS))) {
        // someone storing it there meanwhile wins: what they stored stands, the refresh's queue entry re-evaluates it
        await put({ ...toItem(withAlarmFieldsOf(device, carried), new Date().toISOString()), lastRefresh }, NEW);
      }
    });
  },

  /** The engine's only device write: worst open severity and watchers; answers `{ before }`, or false when the device vanished. */
  async setAlarmSeverity(
    device: Pick<StoredDevice, 'devicesn' | 'details'>,
    severity: Severity | undefined,
    /** The watchers with an open alarm on it; undefined leaves the stored list as it is. */
    watcherIds?: readonly string[],
  ): Promise<{ before: Severity | undefined } | false> {
    const watchers = watcherIds === undefined ? {} : { alarmWatchers: watcherIds.length ? [...watcherIds].sort() : undefined };
    const before = await Devices.update(device, { set: { alarmSeverity: severity, ...watchers } }, EXISTS, 'UPDATED_OLD');
    return before ? { before: typeof before.alarmSeverity === 'number' ? (before.alarmSeverity as Severity) : undefined } : false;
  },

  /**
   * The time of the newest observation behind the stored connectivity: a pushed or polled one
   * (`connectivityAt`), or a refresh's (`lastRefresh`), whichever is later; undefined when neither.
   */
  async connectivityObservedAt(device: Pick<StoredDevice, 'devicesn' | 'details'>): Promise<string | undefined> {
    const item = await get(keys(device), { consistent: true, project: ['connectivityAt', 'lastRefresh'] });
    const times = [item?.connectivityAt, item?.lastRefresh].filter((time): time is string => typeof time === 'string');
    return times.sort().at(-1);
  },

  /**
   * Stores one observation of a device's connectivity made at `at` (ISO 8601), and nothing else:
   * `connected`, `inCallStatus` and `connectivityAt`, on condition that the device is stored and
   * holds no observation as new (`connectivityAt`, `lastRefresh`); false when it does (or vanished).
   * `changed` false stores the time alone, on condition that the device still holds that
   * connectivity (another observation may have flipped it since it was read).
   */
  async storeConnectivity(device: StoredDevice, at: string, changed: boolean): Promise<boolean> {
    const condition = expr(
      'attribute_exists(PK) AND (attribute_not_exists(#connectivityAt) OR #connectivityAt < :at) AND (attribute_not_exists(#lastRefresh) OR #lastRefresh < :at)' +
        (changed ? '' : ' AND #connected = :connected'),
      changed ? { at } : { at, connected: device.status.connected },
    );
    const fields = changed ? { connected: device.status.connected, inCallStatus: device.status.inCallStatus, updatedAt: new Date().toISOString() } : {};
    let held = false;
    const write = async () => {
      held = (await update(keys(device), { set: { ...fields, connectivityAt: at } }, condition)) !== undefined;
    };
    // the time alone is no field a sync compares: no fingerprint is marked for it
    if (changed) await dirtying([device], write);
    else await write();
    return held;
  },

  async remove(device: StoredDevice): Promise<void> {
    await dirtying([device], () => remove(keys(device)));
  },
};

/** A device write that is not the sync's: its rooms marked dirty before and after it (docs/guide/rules/alarms.md "Dirty marks are items of their own"). */
const dirtying = async (written: readonly Pick<StoredDevice, 'details'>[], write: () => Promise<unknown>): Promise<void> => {
  const places = written.map((device) => device.details);
  await syncFingerprints.invalidate(places);
  await write();
  await syncFingerprints.invalidate(places);
};
