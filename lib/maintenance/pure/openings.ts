/**
 * The maintenance openings availability leaves out of a span (docs/guide/rules/maintenance.md "A maintenance window opens at most 48 times a day"). Each window's
 * openings are computed once per request, on the first device it holds, never once per device:
 * with at most MAX_OPENINGS_A_DAY openings a local day, a request over D local days computes at
 * most windows x MAX_OPENINGS_A_DAY x (D + 2) openings (the days the span touches and one either
 * side), however many devices it counts. Devices held by the same windows share one list, so the
 * openings handed to devices are at most that bound times the number of distinct sets of windows
 * holding a device (in practice one or a few per room). Pure.
 */
import { openingsBetween, type Opening } from './schedule';
import { scheduleOf, windowMatches, type MaintenanceTarget } from './windows';
import type { MaintenanceWindow } from '../types';

/** What a request's openings cost: openings computed, and openings handed out in the lists of the distinct sets of windows. */
export interface OpeningsWork {
  computed: number;
  handedOut: number;
}

export interface MaintenanceOpenings {
  /** The openings in the span of the windows that hold `target`, in order of window then time (a list shared by targets the same windows hold). */
  forTarget(target: MaintenanceTarget): readonly Opening[];
  readonly work: OpeningsWork;
}

/**
 * The openings in [from, to) of `windows` by the devices they hold. Windows naming a watcher
 * hold alarms, not availability, and are left out.
 */
export const maintenanceOpenings = (windows: readonly MaintenanceWindow[], from: number, to: number): MaintenanceOpenings => {
  const counted = windows.filter((window) => window.matchers.watcherId === undefined);
  const byWindow = new Map<string, readonly Opening[]>();
  const bySet = new Map<string, readonly Opening[]>();
  const work: OpeningsWork = { computed: 0, handedOut: 0 };
  const openingsOf = (window: MaintenanceWindow): readonly Opening[] => {
    let openings = byWindow.get(window.id);
    if (!openings) {
      const schedule = scheduleOf(window);
      openings = schedule ? openingsBetween(schedule, from, to) : [];
      work.computed += openings.length;
      byWindow.set(window.id, openings);
    }
    return openings;
  };
  return {
    work,
    forTarget(target) {
      const holding = counted.filter((window) => windowMatches(window.matchers, target));
      if (holding.length === 0) return [];
      const key = holding.map((window) => window.id).join(' ');
      let list = bySet.get(key);
      if (!list) {
        list = holding.flatMap(openingsOf);
        work.handedOut += list.length;
        bySet.set(key, list);
      }
      return list;
    },
  };
};
