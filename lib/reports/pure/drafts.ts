/**
 * A fleet report as deliveries (docs/guide/rules/reports.md "A report travels as a `report` digest through the notification deliveries"): one `report`
 * digest carrying it, one delivery per channel. The digest's id is fixed by the schedule and
 * the period, so each delivery's id is too: storing them again (a run taking over a lapsed
 * claim) stores nothing twice. Pure.
 */
import { stableId } from '#lib/notify/pure/digest';
import { deliveryId } from '#lib/notify/pure/plan';
import type { DeliveryDraft, Digest } from '#lib/notify/types';
import type { FleetReport } from '../types';

/** The digest of one report; `key` fixes its id: the period's start for a scheduled report, a fresh id for one run on demand. */
export const reportDigest = (report: FleetReport, key: string): Digest => ({
  type: 'report',
  id: stableId('report', report.scheduleId, key),
  at: report.to,
  alarms: [],
  total: report.alarms.total,
  rooms: report.availability.rooms,
  scope: report.scope,
  report,
});

/** One delivery of the digest per channel (each channel once), with the channel it goes to. */
export const reportDrafts = (digest: Digest, channelIds: readonly string[]): { channelId: string; draft: DeliveryDraft }[] =>
  [...new Set(channelIds)].map((channelId) => {
    const target = { kind: 'channel' as const, channelId };
    return { channelId, draft: { id: deliveryId(digest, target), digest, target, status: 'pending' as const } };
  });
