/**
 * Maintenance windows as data: the rules a contract cannot say, which windows
 * hold an alarm, ids that sort by creation. Pure; the store is lib/maintenance/service.ts's.
 */
import { randomBytes } from 'node:crypto';
import { compileSchedule, isOpenAt, MAX_DURATION_MINUTES, openingAt, openingsBetween, statusAt, type Opening, type Problem, type Schedule, type WindowStatus } from './schedule';
import { MINUTE_MS } from '#lib/shared/zone';
import { WINDOW_MATCHER_FIELDS, type MaintenanceWindow, type WindowInput, type WindowMatchers } from '../types';

/** Place matchers where device queries take the wildcard "all": a window naming it would match nothing. */
const PLACE_MATCHERS = ['region', 'location', 'room'] as const;
const ALL = 'all';

/** The matchers that were given, in a fixed order. */
export const givenMatchers = (matchers: WindowMatchers): WindowMatchers =>
  Object.fromEntries(WINDOW_MATCHER_FIELDS.filter((field) => matchers[field] !== undefined).map((field) => [field, matchers[field]]));

/**
 * A window as sent, checked at `now`: at least one matcher, none "all", a schedule that compiles
 * (lib/maintenance/pure/schedule.ts) and opens at least once more. Answers the schedule and the zone
 * it resolved, or the problems, each naming its field (400).
 */
export const checkWindow = (
  input: WindowInput,
  now: number,
  defaultTimeZone?: string,
): { schedule: Schedule; matchers: WindowMatchers } | { problems: Problem[] } => {
  const problems: Problem[] = [];
  const matchers = givenMatchers(input.matchers);
  if (Object.keys(matchers).length === 0) problems.push({ field: 'body.matchers', message: `matchers must name at least one of ${WINDOW_MATCHER_FIELDS.join(', ')}` });
  for (const field of PLACE_MATCHERS) {
    if (matchers[field] === ALL) problems.push({ field: `body.matchers.${field}`, message: `matchers.${field} must not be "all": omit the field instead (a window without ${field} matches every ${field})` });
  }
  const compiled = compileSchedule(input.schedule, { startsAt: input.startsAt, endsAt: input.endsAt }, defaultTimeZone);
  if ('problems' in compiled) problems.push(...compiled.problems);
  if (problems.length || 'problems' in compiled) return { problems };

  const { schedule } = compiled;
  if (statusAt(schedule, now).status === 'ended') {
    const unbounded = { ...schedule, endsAt: undefined };
    const field = schedule.endsAt !== undefined && statusAt(unbounded, now).status !== 'ended' ? 'body.endsAt' : 'body.schedule';
    return { problems: [{ field, message: field === 'body.endsAt' ? 'endsAt leaves the window no opening from now on' : 'the schedule opens no more from now on (its UNTIL has passed, or its only openings fall into a clock change)' }] };
  }
  return { schedule, matchers };
};

/** A stored window's schedule, ready to evaluate; undefined if it no longer compiles (a zone the runtime dropped). */
export const scheduleOf = (window: Pick<MaintenanceWindow, 'schedule' | 'startsAt' | 'endsAt'>): Schedule | undefined => {
  const compiled = compileSchedule(window.schedule, { startsAt: window.startsAt, endsAt: window.endsAt });
  return 'problems' in compiled ? undefined : compiled.schedule;
};

/** A window as answered: also whether it is open now, and when it next opens and closes. */
export type WindowAnswer = MaintenanceWindow & { status: WindowStatus; nextOpening: string | null; nextClosing: string | null };

const isoOrNull = (ms: number | undefined) => (ms === undefined ? null : new Date(ms).toISOString());

export const answerOf = (window: MaintenanceWindow, now: number): WindowAnswer => {
  const schedule = scheduleOf(window);
  const status = schedule ? statusAt(schedule, now) : { status: 'ended' as const, nextOpening: undefined, nextClosing: undefined };
  return { ...window, status: status.status, nextOpening: isoOrNull(status.nextOpening), nextClosing: isoOrNull(status.nextClosing) };
};

/**
 * When a window stops counting against the cap and may be forgotten: the end of the last
 * opening it may have (one starting just before endsAt runs its whole length); none without endsAt.
 */
export const lastClosing = (window: Pick<MaintenanceWindow, 'schedule' | 'endsAt'>): number | undefined =>
  window.endsAt === undefined ? undefined : Date.parse(window.endsAt) + window.schedule.durationMinutes * MINUTE_MS + 60 * MINUTE_MS; // an hour more: a clock change

/**
 * A UUID version 7 (RFC 9562): 48 bits of epoch ms, then random bits, so that ids sort in the
 * order windows were created and the list reads in that order from one Query
 * (docs/guide/rules/maintenance.md "Maintenance windows in one partition, ids in creation order").
 */
export const timeOrderedId = (now = Date.now()): string => {
  const bytes = randomBytes(16);
  bytes.writeUIntBE(now, 0, 6);
  bytes[6] = (bytes[6]! & 0x0f) | 0x70;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
};

/* ---- for the alarm engine: alarms marked inMaintenance, nothing sent, as planned work is expected to fail ---- */

/** What a window's matchers are held against: an alarm's place, device and watcher, and the device's vendor (the same fields). */
export type MaintenanceTarget = WindowMatchers;

/** A window open at some instant, with the opening under way. */
export interface OpenWindow {
  window: MaintenanceWindow;
  opening: Opening;
}

/** Whether every matcher the window has agrees with the target (a matcher on a field the target lacks never does). */
export const windowMatches = (matchers: WindowMatchers, target: MaintenanceTarget): boolean =>
  WINDOW_MATCHER_FIELDS.every((field) => matchers[field] === undefined || matchers[field] === target[field]);

/** The windows open at `at` (epoch ms), each with its opening: evaluate once per run, then match each alarm. */
export const openWindowsAt = (windows: readonly MaintenanceWindow[], at: number): OpenWindow[] =>
  windows.flatMap((window) => {
    const schedule = scheduleOf(window);
    const opening = schedule ? openingAt(schedule, at) : undefined;
    return opening ? [{ window, opening }] : [];
  });

/** The open windows that hold `target`, as ids (sorted): non-empty means the target is in maintenance. */
export const matchingWindows = (open: readonly OpenWindow[], target: MaintenanceTarget): string[] =>
  open.filter(({ window }) => windowMatches(window.matchers, target)).map(({ window }) => window.id).sort();

/** How an alarm's windows are answered (GET /alarms, the engine's plan): `inMaintenance` only when some open window holds it. */
export const maintenanceOf = (open: readonly OpenWindow[], target: MaintenanceTarget): { inMaintenance?: string[] } => {
  const ids = matchingWindows(open, target);
  return ids.length === 0 ? {} : { inMaintenance: ids };
};

/** Whether `target` is in maintenance at `at` under any of `windows`. */
export const inMaintenance = (windows: readonly MaintenanceWindow[], target: MaintenanceTarget, at: number): boolean =>
  windows.some((window) => {
    const schedule = windowMatches(window.matchers, target) ? scheduleOf(window) : undefined;
    return schedule !== undefined && isOpenAt(schedule, at);
  });

/** How far back a run looks for a closing it has not told yet: the longest opening and two days more. */
const RELEASE_LOOKBACK_MS = (MAX_DURATION_MINUTES + 2 * 24 * 60) * MINUTE_MS;

/**
 * The last opening of `window` that closed at or before `now` (and after the window was created),
 * if any within the look-back: when it closes, the alarms it held that still fire are told once.
 */
export const lastClosedOpening = (window: MaintenanceWindow, now: number): Opening | undefined => {
  const schedule = scheduleOf(window);
  if (!schedule) return undefined;
  const created = Date.parse(window.createdAt);
  return openingsBetween(schedule, now - RELEASE_LOOKBACK_MS, now)
    .filter((opening) => opening.end <= now && opening.end > created)
    .at(-1);
};

/**
 * Whether an alarm was held by `opening` of a window and is to be told at its close: it matches,
 * it fired inside the opening (one raised before was told then), and nothing holds it now.
 */
export const heldUntilClosing = (window: MaintenanceWindow, opening: Opening, alarm: MaintenanceTarget & { raisedAt: string }, stillHeld: boolean): boolean => {
  const raised = Date.parse(alarm.raisedAt);
  return !stillHeld && raised >= opening.start && raised < opening.end && windowMatches(window.matchers, alarm);
};
