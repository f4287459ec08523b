/**
 * A maintenance window's history (docs/guide/rules/maintenance.md "A window's openings are recorded in its own history, start and end once each"),
 * kept by the notifier beside the release marker: every evaluator run records the opening under
 * way ("opened", at its start) and, when it tells a closing (before the release marker), that
 * opening's start and end. Each is put if absent, so racing runs record it once, and a closing
 * no run saw open still has both.
 */
import * as history from '#lib/maintenance/repository/history';
import type { MaintenanceEvent } from '#lib/maintenance/repository/history';
import type { Opening } from '#lib/maintenance/pure/schedule';
import type { MaintenanceWindow } from '#lib/maintenance/types';

const iso = (ms: number) => new Date(ms).toISOString();

const eventOf = (window: MaintenanceWindow, opening: Opening, event: MaintenanceEvent['event'], now: number): MaintenanceEvent => ({
  windowId: window.id,
  event,
  at: iso(event === 'opened' ? opening.start : opening.end),
  opening: { start: iso(opening.start), end: iso(opening.end) },
  recordedAt: iso(now),
});

const record = async (event: MaintenanceEvent): Promise<void> => {
  if (!(await history.has(event))) await history.recordIfAbsent(event);
};

/** Records that `opening` of `window` opened (once, whichever run comes first). */
export const recordOpened = (window: MaintenanceWindow, opening: Opening, now: number): Promise<void> => record(eventOf(window, opening, 'opened', now));

/** Records that `opening` closed, and that it opened when no run recorded it while it was open. */
export const recordClosed = async (window: MaintenanceWindow, opening: Opening, now: number): Promise<void> => {
  await recordOpened(window, opening, now);
  await record(eventOf(window, opening, 'closed', now));
};
