import { historyExpiry } from '#lib/shared/retention';
import { maintenanceHistoryPk, MaintenanceEventEntity as Events, type MaintenanceEvent } from '#lib/maintenance/entities';
import { readPage, type Page } from '#lib/store/paging';
import { NEW, unexpired } from '#lib/store/table';

export type { MaintenanceEvent } from '#lib/maintenance/entities';

// A window's openings and closings in its own partition (docs/guide/rules/maintenance.md "A window's openings are recorded in its own history, start and end once each"): put-if-absent, so racing or resumed runs record each once;
// read by key (consistent) first, so one finding it written costs a read, not a failed write. They expire ALARM_HISTORY_DAYS after their instant.

export const has = async (event: Pick<MaintenanceEvent, 'windowId' | 'event' | 'at'>): Promise<boolean> => (await Events.read(event, { consistent: true })) !== undefined;

/** Records the event unless it is; false when it was (another run's). */
export const recordIfAbsent = async (event: MaintenanceEvent): Promise<boolean> =>
  Events.put(event, { ...event, expiresAt: historyExpiry(event.at) }, NEW);

/** One page of a window's events, newest first (a consistent Query of its partition). */
export const page = async (windowId: string, limit: number, cursor?: string): Promise<Page<MaintenanceEvent>> => {
  const query = { pk: maintenanceHistoryPk(windowId), descending: true, consistent: true, filter: unexpired() };
  return readPage(query, `maintenance history ${windowId}`, Events.fromItem, limit, cursor);
};
