import type { DeviceFilter } from '#lib/devices/deviceScope';
import { isUnscoped, type AccessScope } from '#lib/shared/access';
import { LiveTicketEntity } from '#lib/live/entities';
import { expr } from '#lib/store/expression';
import { must, NEW, take, changedMeanwhile } from '#lib/store/table';
import { toAccess, toFilter } from './connections';

// Live tickets, stored under their SHA-256; redeeming is one conditional delete (docs/guide/rules/live.md "One-use tickets, not keys, on the socket").

/** Stores a ticket's hash until `validUntil` (epoch ms) for `filter`, within `access` (kept only when it narrows). */
export const store = async (ticket: string, filter: DeviceFilter, validUntil: number, access: AccessScope = []): Promise<void> => {
  const fields = { filter, ...(isUnscoped(access) ? {} : { access }), validUntil, expiresAt: Math.ceil(validUntil / 1000) };
  await must(LiveTicketEntity.put(ticket, fields, NEW), changedMeanwhile);
};

/** Uses a ticket up: its filter and scope (empty: everywhere) if it existed, was unused and unexpired; otherwise undefined. */
export const redeem = async (ticket: string) => {
  const used = await take(LiveTicketEntity.key(ticket), expr('attribute_exists(PK) AND #validUntil > :now', { now: Date.now() }));
  return used ? { filter: toFilter(used.filter), access: toAccess(used.access) } : undefined;
};
