import type { DayRollup } from '#lib/rollups/pure/availability';
import type { ConnectivityChange, Place } from '#lib/devices/types';
import { RollupEntity, rollupPk } from '#lib/rollups/entities';
import { ConnectivityTransitionEntity, connectivityPk } from '#lib/devices/entities';
import { expr } from '#lib/store/expression';
import { readPage, type Page } from '#lib/store/paging';
import { pages, queryFirst } from '#lib/store/query';
import { batchWrite, hasExpired, NEW, putRequest, type Item } from '#lib/store/table';

// Connectivity history and per-room availability rollups (docs/guide/rules/alarms.md and docs/guide/rules/reports.md).

/** Stores connectivity changes (idempotent puts: the same device and time is the same item). */
export const record = async (changes: readonly ConnectivityChange[], expiresAt: (at: string) => number): Promise<void> => {
  await batchWrite(changes.map((c) => putRequest(ConnectivityTransitionEntity.item(c, { ...c, expiresAt: expiresAt(c.at) }))));
};

/** One page of a device's connectivity changes in [from, to] (`from` '' : everything up to `to`), newest first. */
export const history = async (devicesn: string, from: string, to: string, limit: number, cursor?: string): Promise<Page<Pick<ConnectivityChange, 'at' | 'connected' | 'inCallStatus'>>> => {
  const q = {
    pk: connectivityPk(devicesn),
    // DynamoDB refuses an empty string in a key condition: no lower bound is `<=` alone
    sk: from === '' ? expr('#sk <= :to', { to }) : expr('#sk BETWEEN :from AND :to', { from, to }),
    filter: expr('#expiresAt > :now', { now: Math.floor(Date.now() / 1000) }),
    descending: true,
  };
  return readPage(q, `connectivity ${devicesn}`, ConnectivityTransitionEntity.fromItem, limit, cursor);
};

/** The room's latest rollup (consistent: the input of the next advance). */
export const latestRollup = async (place: Place): Promise<DayRollup | undefined> => {
  const latest = await queryFirst({ pk: rollupPk(place), descending: true, consistent: true });
  // rollups expire oldest first: when the newest has expired, so have all
  return latest && !hasExpired(latest) ? RollupEntity.fromItem(latest) : undefined;
};

/** Writes rollups computed from `read`, each conditioned on the item as read (or absent); false when another writer won. */
export const writeRollups = async (place: Place, read: DayRollup | undefined, rollups: readonly DayRollup[], expiresAt: (day: string) => number): Promise<boolean> => {
  for (const rollup of rollups) {
    const same = read && read.day === rollup.day;
    const fields = { ...place, ...rollup, expiresAt: expiresAt(rollup.day) };
    if (!(await RollupEntity.put({ place, day: rollup.day }, fields, same ? expr('#lastAt = :lastAt', { lastAt: read.lastAt }) : NEW))) return false;
  }
  return true;
};

/** The room's rollups of the days `first`..`last`, and the last one before them (the counts the window starts with). */
export const rollups = async (place: Place, first: string, last: string): Promise<DayRollup[]> => {
  const found: Item[] = [];
  read: for await (const page of pages({ pk: rollupPk(place), sk: expr('#sk <= :last', { last }), descending: true })) {
    for (const item of page.items) {
      // an expired rollup is absent (TTL deletes lazily), and so is every older one
      if (hasExpired(item)) break read;
      found.push(item);
      if (String(item.SK) < first) break read;
    }
  }
  return found.reverse().map(RollupEntity.fromItem);
};
