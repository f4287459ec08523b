import type { AlarmKey } from '#lib/alarms/types';
import type { Notice } from '#lib/notify/types';
import { ALARM_INDEX, AlarmEntity, alarmIndexKeys } from '#lib/alarms/entities';
import { expr } from '#lib/store/expression';
import { queryShards } from '#lib/store/query';
import { chunked, type Item } from '#lib/store/table';
import { itemsOf } from './alarmViews';

// The notice outbox on the alarm item (ADRs 0089, 0321): GSI2 `ALARMS#NOTIFY` holds items with notices pending.

const pendingOf = (item: Item): { alarm: AlarmKey; notices: Notice[] } => ({
  alarm: { watcherId: String(item.watcherId), devicesn: String(item.devicesn) },
  notices: (Array.isArray(item.pendingNotices) ? item.pendingNotices : []) as Notice[],
});

/** Alarms with notices not yet carried by a stored digest, oldest transition first within each alarm. */
export const pendingNotices = async () =>
  (await queryShards(ALARM_INDEX.notices, { index: 'GSI2', project: ['watcherId', 'devicesn', 'pendingNotices'] })).map(pendingOf);

/** These alarms' pending notices as the table holds them now (an index copy may be older: DESIGN §3). */
export const noticesOf = async (pairs: readonly AlarmKey[]) => {
  const items = await itemsOf(pairs, ['PK', 'SK', 'watcherId', 'devicesn', 'pendingNotices']);
  return [...items.values()].filter((item) => Array.isArray(item.pendingNotices) && item.pendingNotices.length > 0).map(pendingOf);
};

/** List elements one REMOVE drops: `#mails[999]` is 11 bytes, so 200 of them stay under 2.5 KB. */
const REMOVED_PER_UPDATE = 200;

/** Drops the first `delivered` pending notices of an alarm, and its place in the pending index once none is left. */
export const noticesCollected = async (alarm: AlarmKey, delivered: readonly Notice[]): Promise<void> => {
  if (delivered.length === 0) return;
  const all = await AlarmEntity.update(
    alarm,
    { remove: ['pendingNotices', 'GSI2PK', 'GSI2SK'] },
    expr('size(#pendingNotices) = :n AND #pendingNotices[0].#id = :first', { n: delivered.length, first: delivered[0]!.id }),
  );
  if (all) return;
  // a newer transition appended a notice meanwhile: drop only those collected, keep it pending;
  // at most REMOVED_PER_UPDATE a write, so the expression stays far below DynamoDB's 4 KB
  for (const chunk of chunked(delivered, REMOVED_PER_UPDATE)) {
    const removal = expr(`REMOVE ${chunk.map((_, i) => `#pendingNotices[${i}]`).join(', ')}`);
    if (!(await AlarmEntity.update(alarm, removal, expr('#pendingNotices[0].#id = :first', { first: chunk[0]!.id })))) return;
  }
};

/**
 * Appends the notice of an acknowledgement to the alarm it acknowledges, while that alarm still
 * fires as raised at `raisedAt` and still carries the acknowledgement given at `acknowledgedAt`
 * (so a notice never outlives the acknowledgement it tells); false when it no longer does.
 */
export const appendAcknowledgementNotice = async (alarm: AlarmKey, raisedAt: string, acknowledgedAt: string, notice: Notice): Promise<boolean> =>
  !!(await AlarmEntity.update(
    alarm,
    { set: alarmIndexKeys.notices(alarm), append: { pendingNotices: [notice] } },
    expr('#state = :firing AND #raisedAt = :raisedAt AND #acknowledgedAt = :acknowledgedAt', { firing: 'firing', raisedAt, acknowledgedAt }),
  ));
