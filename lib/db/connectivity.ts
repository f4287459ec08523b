import { PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { DayRollup, Transition } from '#lib/devices/availability';
import type { Place } from '#lib/devices/types';
import { doc, tableName } from '#lib/store/client';
import { roomId } from './place';
import { batchWrite, hasExpired, isConditionFailed, type Item, queryPages } from './helpers';
import { queryPage, type Page } from './pages';

/*
 * Device connectivity history and per-room availability rollups.
 *   transition  PK CONNECTIVITY#<sn>   SK <at>      {at, connected, inCallStatus}, expiresAt
 *   rollup      PK AVAILABILITY#<room> SK <YYYY-MM-DD>  hourly device-seconds, counts, lastAt, expiresAt
 * A device's history is one Query of its partition in a time window; a room's availability is
 * one Query of its rollups (a few dozen items at most), never the transitions of the fleet.
 */
const enc = encodeURIComponent;
const transitionPk = (devicesn: string) => `CONNECTIVITY#${enc(devicesn)}`;
const rollupPk = (place: Place) => `AVAILABILITY#${roomId(place)}`;

const fromRollup = (item: Item): DayRollup => ({
  day: String(item.SK),
  since: String(item.since),
  lastAt: String(item.lastAt),
  connected: Number(item.connected),
  observed: Number(item.observed),
  connectedSeconds: (item.connectedSeconds as number[]).map(Number),
  observedSeconds: (item.observedSeconds as number[]).map(Number),
});

/** Stores transitions (idempotent puts: the same device and time is the same item). */
export const record = async (transitions: readonly Transition[], expiresAt: (at: string) => number): Promise<void> => {
  await batchWrite(
    transitions.map((t) => ({
      PutRequest: {
        Item: { PK: transitionPk(t.devicesn), SK: t.at, type: 'ConnectivityTransition', ...t, expiresAt: expiresAt(t.at) },
      },
    })),
  );
};

/** One page of a device's transitions in [from, to], newest first. */
export const history = async (devicesn: string, from: string, to: string, limit: number, cursor?: string): Promise<Page<Pick<Transition, 'at' | 'connected' | 'inCallStatus'>>> => {
  const page = await queryPage(
    {
      KeyConditionExpression: 'PK = :pk AND SK BETWEEN :from AND :to',
      FilterExpression: '#expires > :now',
      ExpressionAttributeNames: { '#expires': 'expiresAt' },
      ExpressionAttributeValues: { ':pk': transitionPk(devicesn), ':from': from, ':to': to, ':now': Math.floor(Date.now() / 1000) },
      ScanIndexForward: false,
    },
    { keyAttributes: ['PK', 'SK'], partition: { PK: transitionPk(devicesn) }, query: `connectivity ${devicesn}` },
    limit,
    cursor,
  );
  return {
    items: page.items.map((item) => ({ at: String(item.at), connected: item.connected === true, inCallStatus: String(item.inCallStatus) })),
    nextCursor: page.nextCursor,
  };
};

/** The room's latest rollup (consistent: the input of the next advance). */
export const latestRollup = async (place: Place): Promise<DayRollup | undefined> => {
  const { Items } = await doc.send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'PK = :pk',
      ExpressionAttributeValues: { ':pk': rollupPk(place) },
      ScanIndexForward: false,
      Limit: 1,
      ConsistentRead: true,
    }),
  );
  // rollups expire oldest first: when the newest has expired, so have all
  return Items?.[0] && !hasExpired(Items[0]) ? fromRollup(Items[0]) : undefined;
};

/**
 * Writes rollups computed from `read` (the latest rollup as read, or none): each write is
 * conditioned on the item being as read (or absent), so two writers never add the same time
 * twice. False when another writer got there first: read again and retry.
 */
export const writeRollups = async (place: Place, read: DayRollup | undefined, rollups: readonly DayRollup[], expiresAt: (day: string) => number): Promise<boolean> => {
  for (const rollup of rollups) {
    const same = read && read.day === rollup.day;
    try {
      await doc.send(
        new PutCommand({
          TableName: tableName(),
          Item: { PK: rollupPk(place), SK: rollup.day, type: 'AvailabilityRollup', ...place, ...rollup, expiresAt: expiresAt(rollup.day) },
          ...(same
            ? { ConditionExpression: '#lastAt = :lastAt', ExpressionAttributeNames: { '#lastAt': 'lastAt' }, ExpressionAttributeValues: { ':lastAt': read.lastAt } }
            : { ConditionExpression: 'attribute_not_exists(PK)' }),
        }),
      );
    } catch (error) {
      if (isConditionFailed(error)) return false;
      throw error;
    }
  }
  return true;
};

/** The room's rollups of the days `first`..`last`, and the last one before them (the counts the window starts with). */
export const rollups = async (place: Place, first: string, last: string): Promise<DayRollup[]> => {
  const found: Item[] = [];
  const pages = queryPages({
    KeyConditionExpression: 'PK = :pk AND SK <= :last',
    ExpressionAttributeValues: { ':pk': rollupPk(place), ':last': last },
    ScanIndexForward: false,
  });
  for await (const page of pages) {
    for (const item of page.Items ?? []) {
      // an expired rollup is absent (TTL deletes lazily), and so is every older one
      if (hasExpired(item)) return found.reverse().map(fromRollup);
      found.push(item);
      if (String(item.SK) < first) return found.reverse().map(fromRollup);
    }
  }
  return found.reverse().map(fromRollup);
};
