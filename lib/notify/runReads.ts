import type { Silence } from '#lib/alarms/pure/silences';
import * as maintenanceWindows from '#lib/maintenance/repository/windows';
import * as silences from '#lib/alarms/repository/silences';
import * as watchers from '#lib/watchers/repository';
import type { MaintenanceWindow } from '#lib/maintenance/types';
import type { WatcherRecord } from '#lib/watchers/types';

/** What one notifier run reads of the watchers, the silences and the maintenance windows, each at most once. */
export interface RunReads {
  watchers: () => Promise<readonly WatcherRecord[]>;
  /** The silences not ended at the run's start: whoever uses them asks `silencedBy` at its own instant. */
  silences: () => Promise<readonly Silence[]>;
  windows: () => Promise<readonly MaintenanceWindow[]>;
}

const once = <T>(read: () => Promise<T>): (() => Promise<T>) => {
  let answer: Promise<T> | undefined;
  return () => (answer ??= read());
};

/**
 * The reads of one run (`start`: its instant), made by the first collector that needs them and
 * shared by the others: no collector writes a watcher, a silence or a window, so none has a write
 * of its run to see. Made per run, never kept: the next run reads afresh (docs/guide/rules/notify.md "A notifier run reads the watchers, the silences and the windows once").
 */
export const runReads = (start: number): RunReads => ({
  watchers: once(() => watchers.list()),
  silences: once(() => silences.current(new Date(start).toISOString())),
  windows: once(() => maintenanceWindows.all()),
});
