import type { MaintenanceWindow } from '#lib/maintenance/types';
import { Conflict, NotFound } from '#lib/shared/errors';
import { caps } from '#lib/shared/caps';
import { MAINTENANCE, MaintenanceWindowEntity as Windows } from '#lib/maintenance/entities';
import { versioned, type Versioned } from '#lib/store/entity';
import { listed } from '#lib/store/paging';
import { must, NEW, unexpired, type Item } from '#lib/store/table';
import { capped, endingMembers } from '#lib/store/caps';

// Maintenance windows: one partition sorted by UUIDv7, no index (docs/guide/rules/maintenance.md "Maintenance windows in one partition, ids in creation order"); `version` guards replace and delete.
const { fromItem } = Windows;

export type VersionedWindow = Versioned<MaintenanceWindow>;

/** When a window stops counting against the cap (epoch ms), and when the store may forget it (epoch s). */
export interface WindowLife {
  until?: number;
  expiresAt?: number;
}

// an absent `until` or `expiresAt` is no attribute (the client drops undefined values)
const fields = (window: MaintenanceWindow, version: number, life: WindowLife): Item => ({ ...window, version, ...life });

const windows = versioned(
  Windows,
  (id) => new NotFound(`Maintenance window ${id} not found`),
  (id) => new Conflict(`Maintenance window ${id} was changed by another request; read it again and retry`),
);

/** At most `MAINTENANCE_WINDOWS_MAX` windows not yet ended per stage: a create past it is 409. */
const cap = capped(
  'maintenance',
  () => caps.maintenanceWindows(),
  (max) => `This stage holds ${max} maintenance windows not yet ended, its maximum (MAINTENANCE_WINDOWS_MAX); delete one first (DELETE /maintenance/{id})`,
  endingMembers(MAINTENANCE, 'until', (until) => (typeof until === 'number' ? until : undefined)),
);

/** Stores a new window; 409 when the stage holds its maximum of windows not yet ended. */
export const create = async (window: MaintenanceWindow, life: WindowLife): Promise<MaintenanceWindow> => {
  await cap.admitted(window.id, life.until, () => must(Windows.put(window.id, fields(window, 1, life), NEW), () => new Error(`maintenance window id ${window.id} collided`)));
  return window;
};

export const getVersioned = windows.read;

// The kept windows, oldest first: the alarm engine reads them all (one Query of one small partition), a scoped caller's page keeps its own.
const kept = listed(() => ({ pk: MAINTENANCE, filter: unexpired(), consistent: true }), 'maintenance', fromItem);
export const all = kept.all;
export const page = kept.page;

/** Replaces a window read at `version`: 409 when written since, 404 when deleted since. */
export const replace = async (current: VersionedWindow, window: MaintenanceWindow, life: WindowLife): Promise<MaintenanceWindow> => {
  await cap.admit(window.id, life.until); // a member already: its `until` moves
  await windows.putAt(window.id, fields(window, current.version + 1, life), current.version);
  return window;
};

/** Deletes a window read at `version`; 409 when another request wrote it since, 404 when it is gone. */
export const remove = async (current: VersionedWindow): Promise<void> => {
  await windows.removeAt(current.record.id, current.version);
  await cap.forget(current.record.id);
};
