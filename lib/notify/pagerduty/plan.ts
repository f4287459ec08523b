import * as channels from '#lib/notify/repository/channels';
import { stableId } from '../pure/digest';
import { deliveryId } from '../pure/plan';
import type { DeliveryDraft } from '../types';
import { takesType } from './pure/events';

/*
 * Deliveries to PagerDuty channels: PagerDuty's incidents are per alarm (dedup_key = alarm id), so a
 * digest of several alarms becomes one delivery per alarm, each retried and logged on its own: a
 * 429 on the third alarm never sends the first two again. The id of each is fixed by the digest
 * and the alarm, so planning the same digest again stores nothing twice (exactly once per transition).
 */

/** One delivery per alarm of a draft to a PagerDuty channel; none for what PagerDuty is not told (reminders, reports, suppression notices). Pure. */
export const perAlarm = (draft: DeliveryDraft): DeliveryDraft[] => {
  if (!takesType(draft.digest.type)) return [];
  return draft.digest.alarms.map((alarm) => {
    const digest = { ...draft.digest, id: stableId('pagerduty', draft.digest.id, alarm.id), alarms: [alarm], total: 1, rooms: 1, scope: `${alarm.region} / ${alarm.location} / ${alarm.room}` };
    return { ...draft, id: deliveryId(digest, draft.target), digest };
  });
};

/**
 * The drafts as stored: those to PagerDuty channels split per alarm (channel types read once per
 * call, consistently), the others as they are. A channel deleted meanwhile keeps its draft: its
 * delivery fails as any to a deleted channel does.
 */
export const forIncidentTools = async (drafts: readonly DeliveryDraft[]): Promise<DeliveryDraft[]> => {
  const ids = [...new Set(drafts.flatMap((d) => (d.target.kind === 'channel' ? [d.target.channelId] : [])))];
  if (ids.length === 0) return [...drafts];
  const types = new Map(await Promise.all(ids.map(async (id) => [id, (await channels.find(id))?.type] as const)));
  return drafts.flatMap((draft) => (draft.target.kind === 'channel' && types.get(draft.target.channelId) === 'pagerduty' ? perAlarm(draft) : [draft]));
};
