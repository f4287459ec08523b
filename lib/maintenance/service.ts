/**
 * The `/maintenance` routes' work: create, list, read, replace and delete
 * windows, each within the caller's scope as a silence is (lib/alarms/silences.ts
 * `silenceWithinAccessScope`, docs/guide/rules/access.md "What lies within a scope: areas, silences, watcher conditions"): a scoped caller's window pins a region (and location) of
 * its scope, and every other window is 404 to it, as if unknown.
 */
import { silenceWithinAccessScope } from '#lib/alarms/pure/silences';
import { historyExpiry } from '#lib/shared/retention';
import * as store from '#lib/maintenance/repository/windows';
import * as history from '#lib/maintenance/repository/history';
import { mapPage, type Page } from '#lib/store/paging';
import { Invalid, NotFound } from '#lib/shared/errors';
import { placeTimeZone as profileTimeZone } from '#lib/locations/service';
import { releaseBeforeChange } from '#lib/notify/maintenanceRelease';
import { isUnscoped, type AccessScope } from '#lib/shared/access';
import type { MaintenanceWindow, WindowInput, WindowMatchers } from './types';
import { answerOf, checkWindow, lastClosing, openWindowsAt, timeOrderedId, type OpenWindow, type WindowAnswer } from './pure/windows';
import { apart } from '#lib/store/transaction';

/** The time zone of the place a window's matchers name, when one is known (its location's profile: docs/guide/rules/maintenance.md "A maintenance window without a zone takes its location's profile zone"). */
type PlaceTimeZone = (matchers: WindowMatchers) => Promise<string | undefined>;

interface Options {
  /** Where a schedule without `timeZone` takes its zone from (docs/guide/rules/maintenance.md "A window's time zone: sent, or the place's default, stored resolved"). */
  placeTimeZone?: PlaceTimeZone;
}

const within = (window: Pick<MaintenanceWindow, 'matchers'>, scope: AccessScope) => silenceWithinAccessScope(window, scope);

const outOfScope = () =>
  new NotFound('No place within your scope is named by body.matchers: name a region of your scope, and one of its locations where your scope holds only locations of that region', {
    details: [{ field: 'body.matchers', message: 'body.matchers must pin a region (and a location) within your scope' }],
  });

/** The stored form of a window as sent (400 naming the field when it is wrong; 404 outside the scope). */
const stored = async (input: WindowInput, scope: AccessScope, options: Options, now: Date): Promise<Omit<MaintenanceWindow, 'id' | 'createdBy' | 'createdAt' | 'updatedAt'>> => {
  // the place's zone is read only within the scope: else 400 or 404 would tell whether a location outside it has a profile
  const placed = input.schedule.timeZone === undefined && within(input, scope) ? await (options.placeTimeZone ?? profileTimeZone)(input.matchers) : undefined;
  const checked = checkWindow(input, now.getTime(), placed);
  if ('problems' in checked) throw new Invalid(checked.problems[0]!.message, checked.problems);
  if (!within(checked, scope)) throw outOfScope();
  const { days, start, rrule, durationMinutes } = input.schedule;
  return {
    matchers: checked.matchers,
    schedule: { ...(rrule === undefined ? { days, start } : { rrule }), durationMinutes, timeZone: checked.schedule.timeZone },
    ...(input.startsAt === undefined ? {} : { startsAt: new Date(input.startsAt).toISOString() }),
    ...(input.endsAt === undefined ? {} : { endsAt: new Date(input.endsAt).toISOString() }),
    comment: input.comment,
  };
};

/** When a window stops counting against the cap, and when the store may forget it (ALARM_HISTORY_DAYS after its last opening). */
const lifeOf = (window: MaintenanceWindow): store.WindowLife => {
  const until = lastClosing(window);
  return until === undefined ? {} : { until, expiresAt: historyExpiry(new Date(until).toISOString()) };
};

export const createWindow = async (input: WindowInput, createdBy: string, scope: AccessScope = [], options: Options = {}): Promise<WindowAnswer> => {
  const now = new Date();
  const window: MaintenanceWindow = { id: timeOrderedId(now.getTime()), ...(await stored(input, scope, options, now)), createdBy, createdAt: now.toISOString(), updatedAt: now.toISOString() };
  return answerOf(await store.create(window, lifeOf(window)), now.getTime());
};

/** Windows answered per page when no limit is asked. */
const DEFAULT_WINDOWS_PAGE = 100;

/** One page of the kept windows (any status), oldest first; a scoped caller's holds those within its scope (and may be short). */
export const listWindows = async (query: { limit?: string; cursor?: string }, scope: AccessScope = []): Promise<Page<WindowAnswer>> => {
  const now = Date.now();
  const limit = query.limit ? Number(query.limit) : DEFAULT_WINDOWS_PAGE;
  const page = await store.page(limit, query.cursor, isUnscoped(scope) ? undefined : (window) => within(window, scope));
  return mapPage(page, (window) => answerOf(window, now));
};

const getWithin = async (id: string, scope: AccessScope): Promise<store.VersionedWindow> => {
  const current = await store.getVersioned(id);
  if (!within(current.record, scope)) throw new NotFound(`Maintenance window ${id} not found`);
  return current;
};

export const getWindow = async (id: string, scope: AccessScope = []): Promise<WindowAnswer> => answerOf((await getWithin(id, scope)).record, Date.now());

/** Replaces a window whole (its id, createdBy and createdAt kept); the one read and the one sent both within the scope. */
export const replaceWindow = async (id: string, input: WindowInput, scope: AccessScope = [], options: Options = {}): Promise<WindowAnswer> => {
  const current = await getWithin(id, scope);
  const now = new Date();
  const { createdBy, createdAt } = current.record;
  const window: MaintenanceWindow = { id, ...(await stored(input, scope, options, now)), createdBy, createdAt, updatedAt: now.toISOString() };
  await apart(() => releaseBeforeChange(current.record, now.getTime(), window)); // what it held and no longer holds is told (docs/guide/rules/maintenance.md "Deleting or replacing an open maintenance window tells what it held")
  return answerOf(await store.replace(current, window, lifeOf(window)), now.getTime());
};

/** One page of a window's openings and closings, newest first (docs/guide/rules/maintenance.md "A window's openings are recorded in its own history, start and end once each"); 404 as the window is. */
export const windowHistory = async (id: string, query: { limit?: string; cursor?: string }, scope: AccessScope = []): Promise<Page<history.MaintenanceEvent>> => {
  await getWithin(id, scope);
  return history.page(id, query.limit ? Number(query.limit) : DEFAULT_WINDOWS_PAGE, query.cursor);
};

/** Deletes a window; what its opening under way held is told first, as at a closing (docs/guide/rules/maintenance.md "Deleting or replacing an open maintenance window tells what it held"). */
export const removeWindow = async (id: string, scope: AccessScope = []): Promise<void> => {
  const current = await getWithin(id, scope);
  await apart(() => releaseBeforeChange(current.record, Date.now()));
  await store.remove(current);
};

/**
 * For the alarm engine (not wired yet): the windows open at `at`, read once
 * per run (one Query), then `matchingWindows(open, {region, location, room, devicesn,
 * watcherId, vendor})` (lib/maintenance/pure/windows.ts) per alarm: non-empty marks it inMaintenance.
 */
export const windowsOpenAt = async (at: Date = new Date()): Promise<OpenWindow[]> => openWindowsAt(await store.all(), at.getTime());
