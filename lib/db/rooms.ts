import { DeleteCommand, GetCommand, PutCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { ServiceUnavailable } from '#lib/errors';
import { inScope, type Scope } from '#lib/devices/deviceScope';
import { rollUp, sameAggregate } from '#lib/devices/rollup';
import type { Place, RoomAggregate, RoomStatus } from '#lib/devices/types';
import { announceStored } from './changes';
import { doc, tableName } from './client';
import { devices, roomId } from './devices';
import { isConditionFailed, queryAll, type Item } from './helpers';

/*
 * One aggregate item per room that holds devices, all in the `ROOMS` partition sorted by
 * region#location#room; GSI1 sorts the same items by location first, GSI2 by room name first.
 * Any scope is then one Query over the rooms in (or very near) that scope, never over devices.
 */
const ROOMS = 'ROOMS';
const BY_LOCATION = 'ROOMS#BY_LOCATION';
const BY_NAME = 'ROOMS#BY_NAME';
const enc = encodeURIComponent;
const keys = (place: Place) => ({ PK: ROOMS, SK: roomId(place) });

const toItem = (aggregate: RoomAggregate, version: number): Item => ({
  ...keys(aggregate),
  GSI1PK: BY_LOCATION,
  GSI1SK: `${enc(aggregate.location)}#${enc(aggregate.region)}#${enc(aggregate.room)}`,
  GSI2PK: BY_NAME,
  GSI2SK: `${enc(aggregate.room)}#${enc(aggregate.region)}#${enc(aggregate.location)}`,
  type: 'RoomAggregate',
  region: aggregate.region,
  location: aggregate.location,
  room: aggregate.room,
  deviceCount: aggregate.deviceCount,
  online: aggregate.online,
  offline: aggregate.offline,
  roomStatus: aggregate.roomStatus,
  version,
  updatedAt: new Date().toISOString(),
});

const fromItem = (item: Item): RoomAggregate => ({
  region: String(item.region),
  location: String(item.location),
  room: String(item.room),
  deviceCount: Number(item.deviceCount),
  online: Number(item.online),
  offline: Number(item.offline),
  roomStatus: String(item.roomStatus) as RoomStatus,
});

const FIELDS = ['region', 'location', 'room', 'deviceCount', 'online', 'offline', 'roomStatus'];
const projection = {
  ProjectionExpression: FIELDS.map((_, i) => `#p${i}`).join(', '),
  ExpressionAttributeNames: Object.fromEntries(FIELDS.map((field, i) => [`#p${i}`, field])),
};

/** Leading names that are fixed, as a key prefix: `a#b#` for [a, b, undefined], `a#b#c` for all three. */
const prefix = (...names: (string | undefined)[]) => {
  const fixed: string[] = [];
  for (const name of names) {
    if (name === undefined) break;
    fixed.push(enc(name));
  }
  if (fixed.length === 0) return '';
  return fixed.length === 3 ? fixed.join('#') : `${fixed.join('#')}#`;
};

/** The narrowest of the three orderings for a scope: by room name, by location, or by region. */
const scopeQuery = (scope: Scope): Omit<QueryCommandInput, 'TableName'> => {
  const [index, pkName, skName, pk, sk] =
    scope.room !== undefined
      ? ['GSI2', 'GSI2PK', 'GSI2SK', BY_NAME, prefix(scope.room, scope.region, scope.region !== undefined ? scope.location : undefined)]
      : scope.location !== undefined
        ? ['GSI1', 'GSI1PK', 'GSI1SK', BY_LOCATION, prefix(scope.location, scope.region)]
        : [undefined, 'PK', 'SK', ROOMS, prefix(scope.region)];
  return {
    ...(index ? { IndexName: index } : {}),
    KeyConditionExpression: sk ? '#pk = :pk AND begins_with(#sk, :sk)' : '#pk = :pk',
    ExpressionAttributeNames: { ...projection.ExpressionAttributeNames, '#pk': pkName, ...(sk ? { '#sk': skName } : {}) },
    ExpressionAttributeValues: { ':pk': pk, ...(sk ? { ':sk': sk } : {}) },
    ProjectionExpression: projection.ProjectionExpression,
  };
};

const byPlace = (a: RoomAggregate, b: RoomAggregate) => (roomId(a) < roomId(b) ? -1 : roomId(a) > roomId(b) ? 1 : 0);

const MAX_ATTEMPTS = 6;

export const rooms = {
  /** The aggregates of every room in scope that holds devices, sorted by region, location, room. */
  async inScope(scope: Scope): Promise<RoomAggregate[]> {
    const items = await queryAll(scopeQuery(scope));
    return items.map(fromItem).filter((room) => inScope(scope, room)).sort(byPlace);
  },

  /**
   * Recomputes one room's aggregate from its devices (one Query of one partition) and writes it
   * under a version condition; removes it when the room has no devices left. Call after every
   * change to a device of the room (sync, refresh, alarm engine). Idempotent. `beforeWrite`
   * runs before a changed aggregate is written (device count 0: removed), so that what it
   * records from the aggregate is never behind a written one (a retry repeats it).
   */
  async recompute(place: Place, beforeWrite?: (aggregate: RoomAggregate) => Promise<void>): Promise<RoomAggregate | undefined> {
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      const { Item: current } = await doc.send(new GetCommand({ TableName: tableName(), Key: keys(place), ConsistentRead: true }));
      const members = await devices.inRoom(place);
      const aggregate = rollUp(place, members);
      const version = Number(current?.version ?? 0);
      const guard = current
        ? { ConditionExpression: '#version = :version', ExpressionAttributeNames: { '#version': 'version' }, ExpressionAttributeValues: { ':version': version } }
        : { ConditionExpression: 'attribute_not_exists(PK)' };
      try {
        if (beforeWrite && (!current || !sameAggregate(fromItem(current), aggregate))) await beforeWrite(aggregate);
        if (aggregate.deviceCount === 0) {
          if (!current) return undefined;
          await doc.send(new DeleteCommand({ TableName: tableName(), Key: keys(place), ...guard }));
          await announceStored({ kind: 'room', at: new Date().toISOString(), room: aggregate });
          return undefined;
        }
        if (current && sameAggregate(fromItem(current), aggregate)) return aggregate;
        await doc.send(new PutCommand({ TableName: tableName(), Item: toItem(aggregate, version + 1), ...guard }));
        await announceStored({ kind: 'room', at: new Date().toISOString(), room: aggregate });
        return aggregate;
      } catch (error) {
        if (!isConditionFailed(error)) throw error;
      }
    }
    throw new ServiceUnavailable(`room ${place.room} kept changing while its counts were recomputed; retry`);
  },
};
