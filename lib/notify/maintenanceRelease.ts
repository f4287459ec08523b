import { silencedBy, type Silence } from '#lib/alarms/pure/silences';
import type { OpenAlarm } from '#lib/alarms/types';
import * as alarms from '#lib/alarms/repository/alarms';
import * as deliveries from '#lib/notify/repository/deliveries';
import { devices } from '#lib/devices/repository/devices';
import * as maintenanceWindows from '#lib/maintenance/repository/windows';
import { releases } from '#lib/notify/repository/markers';
import * as silences from '#lib/alarms/repository/silences';
import * as watchers from '#lib/watchers/repository';
import { openingAt, type Opening } from '#lib/maintenance/pure/schedule';
import type { MaintenanceWindow } from '#lib/maintenance/types';
import { heldUntilClosing, lastClosedOpening, matchingWindows, openWindowsAt, scheduleOf, type MaintenanceTarget, type OpenWindow } from '#lib/maintenance/pure/windows';
import { mapConcurrent } from '#lib/shared/concurrency';
import type { WatcherRecord } from '#lib/watchers/types';
import { iso } from './deliver';
import { audienceOf, notifiedAlarm } from './pure/notice';
import { draftsFor } from './pure/plan';
import type { DeliveryDraft } from './types';

/**
 * The alarms as maintenance windows match them: with their device's vendor (read by key) when an
 * open window matches on vendor, which alarms do not carry (as GET /alarms and the evaluator's plan).
 */
export const withVendors = async (list: readonly OpenAlarm[], open: readonly OpenWindow[]): Promise<(alarm: OpenAlarm) => MaintenanceTarget> => {
  if (list.length === 0 || !open.some(({ window }) => window.matchers.vendor !== undefined)) return (alarm) => alarm;
  const found = await devices.at(list.map((alarm) => ({ devicesn: alarm.devicesn, place: alarm })));
  const vendorOf = new Map(found.map((d) => [d.devicesn, d.vendor]));
  return (alarm) => ({ ...alarm, vendor: vendorOf.get(alarm.devicesn) });
};

/** The watchers a window may hold: the active ones, only its `watcherId` when it names one. */
export const heldWatchers = (window: MaintenanceWindow, all: readonly WatcherRecord[]): WatcherRecord[] =>
  all.filter((w) => w.active && (window.matchers.watcherId === undefined || w.id === window.matchers.watcherId));

/**
 * When an alarm's telling was held by `opening`: its raise, or, for one raised before it, the lapse
 * of its acknowledgement inside it while it stays unacknowledged (its reminder was held: docs/guide/rules/maintenance.md "An acknowledgement lapse held by a maintenance window is told when the window closes").
 */
const heldSince = (alarm: OpenAlarm, opening: Opening): string => {
  const inside = (at: string) => Date.parse(at) >= opening.start && Date.parse(at) < opening.end;
  const lapse = alarm.acknowledgement ? undefined : alarm.ackEvents?.findLast((event) => event.lapsed && inside(event.at));
  return lapse && !inside(alarm.raisedAt) ? lapse.at : alarm.raisedAt;
};

/**
 * The digest of one watcher's alarms that `opening` of `window` held and that still fire, unsilenced
 * and held by no other open window nor a parent (docs/guide/rules/maintenance.md "A closing maintenance window tells what it held once, found from its schedule and a marker"): dated the opening's end and
 * carrying the window unless told otherwise, so its id (and its deliveries') is fixed. None when it held none.
 */
export const heldDrafts = async (
  window: MaintenanceWindow,
  opening: Opening,
  watcher: WatcherRecord,
  active: readonly Silence[],
  maintenance: readonly OpenWindow[],
  now: number,
  dated: { at: string; carrying: string } = { at: iso(opening.end), carrying: `maintenance:${window.id}` },
): Promise<DeliveryDraft[]> => {
  const firing = await alarms.firingOf(watcher.id);
  const vendors =
    window.matchers.vendor === undefined || firing.length === 0
      ? new Map<string, string | undefined>()
      : new Map((await devices.at(firing.map((alarm) => ({ devicesn: alarm.devicesn, place: alarm })))).map((d) => [d.devicesn, d.vendor]));
  const held = firing
    .map((alarm) => ({ alarm, target: { ...alarm, vendor: vendors.get(alarm.devicesn), raisedAt: heldSince(alarm, opening) } }))
    .filter(({ alarm, target }) =>
      heldUntilClosing(window, opening, target, silencedBy(alarm, active, iso(now)).length > 0 || matchingWindows(maintenance, target).length > 0 || alarm.suppressedBy !== undefined),
    )
    .map(({ alarm }) => notifiedAlarm(alarm));
  if (held.length === 0) return [];
  return draftsFor({
    type: 'alarms.raised',
    at: dated.at,
    watcher: { id: watcher.id, description: watcher.description, severity: watcher.severity, type: watcher.type },
    alarms: held,
    audience: audienceOf(watcher),
    carrying: dated.carrying,
  });
};

/**
 * Before a window is deleted or replaced (docs/guide/rules/maintenance.md "Deleting or replacing an open maintenance window tells what it held"): its opening under way ends now, and what
 * it held that still fires, and that neither another open window nor the `replacement` (when open
 * now) holds, is told as at a closing (the deliveries stored, sent by the notifier's next run); a
 * closing not told yet is told as the notifier would have. Unless the replacement is open now, the
 * release marker is then put, so a change that fails (409), or a replacement whose past openings
 * differ, tells nothing twice.
 */
export const releaseBeforeChange = async (window: MaintenanceWindow, now: number, replacement?: MaintenanceWindow): Promise<void> => {
  const schedule = scheduleOf(window);
  const under = schedule && openingAt(schedule, now);
  const closed = under ? undefined : lastClosedOpening(window, now);
  const told = await releases.lastClosed(window.id);
  const opening = under ? { start: under.start, end: now } : closed && (told === undefined || told < closed.end) ? closed : undefined;
  if (!opening) return;
  const [all, active, windows] = await Promise.all([watchers.list(), silences.current(iso(now)), maintenanceWindows.all()]);
  const others = openWindowsAt([...windows.filter((w) => w.id !== window.id), ...(replacement ? [replacement] : [])], now);
  const drafts: DeliveryDraft[] = [];
  // an opening ended early is dated its start and carries the version changed: racing or retried changes store it once
  const dated = under ? { at: iso(under.start), carrying: `maintenance:${window.id}@${window.updatedAt}` } : undefined;
  for (const watcher of heldWatchers(window, all)) drafts.push(...(await heldDrafts(window, opening, watcher, active, others, now, dated)));
  const createdAt = iso(now);
  await mapConcurrent(drafts, 16, (draft) => deliveries.createIfAbsent(draft, createdAt));
  if (!others.some((open) => open.window === replacement)) await releases.closed(window.id, (under ?? opening).end, createdAt);
};
