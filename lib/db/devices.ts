import { DeleteCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { NotFound } from '#lib/errors';
import { mapConcurrent } from '#lib/shared/concurrency';
import { toDevice, type Device, type Place, type Severity, type StoredDevice } from '#lib/devices/types';
import { doc, tableName } from './client';
import { badCursor, isKeyString, openCursor, sealCursor } from './cursor';
import { batchWrite, isConditionFailed, queryAll, type Item } from './helpers';

/*
 * Device items live in their room's partition, so a room's aggregate is recomputed from one
 * small Query. GSI1 finds a device by serial number; GSI2 (one `SERIALS` partition sorted by
 * serial number) lists the serial numbers and is the sync's inventory index.
 */
const enc = encodeURIComponent;
/** A room's identity inside keys: each name URI-encoded, so `#` in a name cannot collide. */
export const roomId = (place: Place): string => `${enc(place.region)}#${enc(place.location)}#${enc(place.room)}`;
const roomPartition = (place: Place) => `ROOM#${roomId(place)}`;
const deviceSk = (devicesn: string) => `DEVICE#${devicesn}`;
const keys = (device: Pick<StoredDevice, 'devicesn' | 'details'>) => ({ PK: roomPartition(device.details), SK: deviceSk(device.devicesn) });
const SERIALS = 'SERIALS';

const toItem = (device: StoredDevice, now: string): Item => ({
  ...keys(device),
  GSI1PK: `DEVICE#${device.devicesn}`,
  GSI1SK: 'DEVICE',
  GSI2PK: SERIALS,
  GSI2SK: device.devicesn,
  type: 'Device',
  deviceid: device.deviceid,
  devicesn: device.devicesn,
  devicemodel: device.devicemodel,
  connected: device.status.connected,
  inCallStatus: device.status.inCallStatus,
  region: device.details.region,
  location: device.details.location,
  room: device.details.room,
  alarmSeverity: device.alarmSeverity,
  updatedAt: now,
});

const fromItem = (item: Item): StoredDevice => {
  const device: StoredDevice = {
    deviceid: String(item.deviceid),
    devicesn: String(item.devicesn),
    devicemodel: String(item.devicemodel),
    status: { connected: item.connected === true, inCallStatus: String(item.inCallStatus) },
    details: { region: String(item.region), location: String(item.location), room: String(item.room) },
  };
  if (typeof item.alarmSeverity === 'number') device.alarmSeverity = item.alarmSeverity as Severity;
  return device;
};

const FIELDS = ['deviceid', 'devicesn', 'devicemodel', 'connected', 'inCallStatus', 'region', 'location', 'room', 'alarmSeverity'];
const projection = {
  ProjectionExpression: FIELDS.map((_, i) => `#p${i}`).join(', '),
  ExpressionAttributeNames: Object.fromEntries(FIELDS.map((field, i) => [`#p${i}`, field])),
};

/** Position in the device list: the last room and serial number answered. */
interface Position {
  room: string;
  sn: string;
}
const openPosition = (query: string, cursor: string): Position => {
  const { room, sn, ...rest } = openCursor(query, cursor);
  if (!isKeyString(room) || !isKeyString(sn) || Object.keys(rest).length > 0) throw badCursor();
  return { room, sn };
};

const roomPage = async (place: Place, afterSn: string, limit: number) => {
  const items: Item[] = [];
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const page = await doc.send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'PK = :pk AND SK > :after',
        ExpressionAttributeValues: { ':pk': roomPartition(place), ':after': deviceSk(afterSn) },
        Limit: limit - items.length,
        ExclusiveStartKey,
      }),
    );
    items.push(...((page.Items ?? []) as Item[]));
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey && items.length < limit);
  return { items, more: ExclusiveStartKey !== undefined };
};

export const devices = {
  /** A device by serial number (GSI1); 404 when unknown (DESIGN D4). */
  async get(devicesn: string): Promise<StoredDevice> {
    const { Items } = await doc.send(
      new QueryCommand({
        TableName: tableName(),
        IndexName: 'GSI1',
        KeyConditionExpression: 'GSI1PK = :pk',
        ExpressionAttributeValues: { ':pk': `DEVICE#${devicesn}` },
      }),
    );
    const item = Items?.[0];
    if (!item) throw new NotFound(`Device ${devicesn} not found`);
    return fromItem(item);
  },

  /** Every device of one room, read consistently: the input of its aggregate. */
  async inRoom(place: Place): Promise<StoredDevice[]> {
    const items = await queryAll({
      KeyConditionExpression: 'PK = :pk',
      ExpressionAttributeValues: { ':pk': roomPartition(place) },
      ConsistentRead: true,
      ...projection,
    });
    return items.map(fromItem);
  },

  /** Every device of the given rooms, room by room in the given order. */
  async inRooms(places: readonly Place[]): Promise<Device[]> {
    const perRoom = await mapConcurrent(places, 16, (place) => devices.inRoom(place));
    return perRoom.flat().map(toDevice);
  },

  /**
   * One page of the devices of the given rooms (sorted by room key), after `cursor`. `query`
   * names the request the rooms came from: a cursor is only good for the query it was answered for.
   */
  async page(places: readonly Place[], limit: number, cursor: string | undefined, query: string): Promise<{ items: Device[]; nextCursor: string | null }> {
    const sorted = [...places].sort((a, b) => (roomId(a) < roomId(b) ? -1 : roomId(a) > roomId(b) ? 1 : 0));
    const from = cursor ? openPosition(query, cursor) : undefined;
    const found: Item[] = [];
    let last: Position | undefined;
    let more = false;
    for (const place of sorted) {
      const id = roomId(place);
      if (from && id < from.room) continue;
      const { items, more: moreInRoom } = await roomPage(place, from && id === from.room ? from.sn : '', limit - found.length);
      found.push(...items);
      if (items.length > 0) last = { room: id, sn: String(items[items.length - 1]!.devicesn) };
      if (found.length >= limit) {
        more = moreInRoom || place !== sorted[sorted.length - 1];
        break;
      }
    }
    return { items: found.map((item) => toDevice(fromItem(item))), nextCursor: more && last ? sealCursor(query, { ...last }) : null };
  },

  /** The whole inventory, from the serial-number index: what a sync compares against. */
  async index(): Promise<StoredDevice[]> {
    const items = await queryAll({
      IndexName: 'GSI2',
      KeyConditionExpression: 'GSI2PK = :pk',
      ...projection,
      ExpressionAttributeValues: { ':pk': SERIALS },
    });
    return items.map(fromItem);
  },

  /** Unique serial numbers, sorted (GSI2 keeps them in order; one attribute projected). */
  async serialNumbers(): Promise<string[]> {
    const items = await queryAll({
      IndexName: 'GSI2',
      KeyConditionExpression: 'GSI2PK = :pk',
      ExpressionAttributeValues: { ':pk': SERIALS },
      ProjectionExpression: 'GSI2SK',
    });
    return items.map((item) => String(item.GSI2SK));
  },

  /** Idempotent batch of upserts and removals (a sync). */
  async writeAll(puts: readonly StoredDevice[], deletes: readonly StoredDevice[]): Promise<void> {
    const now = new Date().toISOString();
    await batchWrite([
      ...deletes.map((device) => ({ DeleteRequest: { Key: keys(device) } })),
      ...puts.map((device) => ({ PutRequest: { Item: toItem(device, now) } })),
    ]);
  },

  /** Stores one device's new state (a refresh), `lastRefresh` included. */
  async put(device: StoredDevice, lastRefresh?: string): Promise<void> {
    const now = new Date().toISOString();
    await doc.send(new PutCommand({ TableName: tableName(), Item: { ...toItem(device, now), lastRefresh } }));
  },

  /**
   * Sets (or, for undefined, removes) a device's worst open alarm severity; the alarm engine's
   * only write to a device. A device that vanished meanwhile is left absent (false).
   */
  async setAlarmSeverity(device: Pick<StoredDevice, 'devicesn' | 'details'>, severity: Severity | undefined): Promise<boolean> {
    try {
      await doc.send(
        new UpdateCommand({
          TableName: tableName(),
          Key: keys(device),
          UpdateExpression: severity === undefined ? 'REMOVE #severity' : 'SET #severity = :severity',
          ConditionExpression: 'attribute_exists(PK)',
          ExpressionAttributeNames: { '#severity': 'alarmSeverity' },
          ...(severity === undefined ? {} : { ExpressionAttributeValues: { ':severity': severity } }),
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailed(error)) return false;
      throw error;
    }
  },

  async remove(device: StoredDevice): Promise<void> {
    await doc.send(new DeleteCommand({ TableName: tableName(), Key: keys(device) }));
  },
};
