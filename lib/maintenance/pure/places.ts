/**
 * Devices and rooms in maintenance
 * (docs/guide/rules/maintenance.md "Devices and rooms show in maintenance at read time, the windows named with their end"). Pure: the windows open at the
 * instant of a read in, the marks out. A window naming a watcher holds that watcher's alarms only,
 * never a device or a room (docs/guide/rules/reports.md "Business hours are one fleet-wide setting; the route reads transitions within a bound"); a room is in maintenance only under a window that
 * names nothing narrower than a place (no devicesn, no vendor), since a window of some of its
 * devices leaves the rest of the room in service.
 */
import type { Place } from '#lib/devices/types';
import { windowMatches, type OpenWindow } from './windows';

/** One open window holding a device or a room, as answered: what the board shows of it. */
interface HeldBy {
  id: string;
  comment: string;
  /** When the opening under way closes (ISO 8601). */
  closesAt: string;
}

/** `inMaintenance` and the windows when some open window holds the thing; nothing at all otherwise (answers without maintenance stay as they were). */
export interface MaintenanceMark {
  inMaintenance?: true;
  maintenance?: HeldBy[];
}

const markOf = (holding: readonly OpenWindow[]): MaintenanceMark =>
  holding.length === 0
    ? {}
    : {
        inMaintenance: true,
        maintenance: holding
          .map(({ window, opening }) => ({ id: window.id, comment: window.comment, closesAt: new Date(opening.end).toISOString() }))
          .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)),
      };

/** The windows that may hold devices at all: those naming no watcher. */
export const deviceWindows = (open: readonly OpenWindow[]): OpenWindow[] => open.filter(({ window }) => window.matchers.watcherId === undefined);

/** A device's mark: the open windows (naming no watcher) whose region, location, room, devicesn and vendor agree with it. */
export const deviceMaintenance = (open: readonly OpenWindow[], device: { devicesn: string; vendor?: string; details: Place }): MaintenanceMark =>
  markOf(deviceWindows(open).filter(({ window }) => windowMatches(window.matchers, { ...device.details, devicesn: device.devicesn, vendor: device.vendor })));

/** A room's mark: the open windows naming only places (region, location, room) that agree with it. */
export const roomMaintenance = (open: readonly OpenWindow[], place: Place): MaintenanceMark =>
  markOf(
    deviceWindows(open).filter(({ window }) => window.matchers.devicesn === undefined && window.matchers.vendor === undefined && windowMatches(window.matchers, place)),
  );
