import { ALL } from '#lib/devices/deviceScope';
import type { AccessScope } from '#lib/shared/access';
import { areaWithinAccessScope } from '#lib/shared/scopeWithin';
import type { Alarm } from '../types';

/** What a silence matches: every given field must equal the alarm's (exact, case-sensitive). */
export interface Matchers {
  region?: string;
  location?: string;
  room?: string;
  devicesn?: string;
  watcherId?: string;
}

export const MATCHER_FIELDS = ['region', 'location', 'room', 'devicesn', 'watcherId'] as const satisfies readonly (keyof Matchers)[];
/** The matchers that name a place, where device queries take the wildcard "all". */
const PLACE_MATCHERS = ['region', 'location', 'room'] as const satisfies readonly (keyof Matchers)[];

/** A silence as clients send it. */
export interface SilenceInput {
  matchers: Matchers;
  startsAt?: string;
  endsAt: string;
  comment: string;
}

/** A silence as stored and answered. */
export interface Silence {
  id: string;
  matchers: Matchers;
  startsAt: string;
  endsAt: string;
  comment: string;
  createdBy: string;
  createdAt: string;
  /** Set when DELETE ended it before `endsAt`. */
  endedAt?: string;
}

export type SilenceStatus = 'pending' | 'active' | 'expired';

/** The longest a silence may last. */
export const MAX_SILENCE_DAYS = 90;
const DAY_MS = 24 * 60 * 60 * 1000;

/** A silence's status at `now`: not started yet, silencing, or over. */
export const silenceStatus = (silence: Pick<Silence, 'startsAt' | 'endsAt'>, now: string): SilenceStatus => {
  const at = Date.parse(now);
  if (at >= Date.parse(silence.endsAt)) return 'expired';
  return at < Date.parse(silence.startsAt) ? 'pending' : 'active';
};

/**
 * Whether a silence lies within a scope (DESIGN §5): its matchers pin a region of the scope, and
 * a location of it where the scope holds only locations of that region. Every silence lies
 * within the unscoped; one that pins no region (a device, a watcher, a room) within no narrowed scope.
 */
export const silenceWithinAccessScope = (silence: Pick<Silence, 'matchers'>, scope: AccessScope): boolean =>
  areaWithinAccessScope(scope, { region: silence.matchers.region, location: silence.matchers.location });

/** Whether every matcher the silence has agrees with the alarm. */
export const matches = (matchers: Matchers, alarm: Pick<Alarm, keyof Matchers>): boolean =>
  MATCHER_FIELDS.every((field) => matchers[field] === undefined || matchers[field] === alarm[field]);

/**
 * The ids of the silences that silence an alarm at `now` (sorted). Small and pure so that every
 * notifier (mail today, digests and webhooks later) asks the same question the same way.
 */
export const silencedBy = (alarm: Pick<Alarm, keyof Matchers>, silences: readonly Silence[], now: string): string[] =>
  silences
    .filter((silence) => silenceStatus(silence, now) === 'active' && matches(silence.matchers, alarm))
    .map((silence) => silence.id)
    .sort();

/** Silence ids answered per alarm at most; `silencedByCount` says how many silence it. */
export const MAX_SILENCED_BY = 20;

/** How an alarm's silences are answered (GET /alarms, live pushes): the first ids, and how many there are. */
export const answeredSilences = (ids: readonly string[]): { silencedBy: string[]; silencedByCount: number } => ({
  silencedBy: ids.slice(0, MAX_SILENCED_BY),
  silencedByCount: ids.length,
});

interface SilenceProblem {
  field: string;
  message: string;
}

/**
 * The rules a schema cannot say: at least one matcher, `endsAt` after `startsAt` and at most 90
 * days later, and an `endsAt` not already past. Answers the times to store, or the problems.
 */
export const silenceWindow = (
  input: Pick<SilenceInput, 'matchers' | 'startsAt' | 'endsAt'>,
  now: string,
): { startsAt: string; endsAt: string } | { problems: SilenceProblem[] } => {
  const problems: SilenceProblem[] = [];
  if (!MATCHER_FIELDS.some((field) => input.matchers[field] !== undefined)) {
    problems.push({ field: 'body.matchers', message: `matchers must name at least one of ${MATCHER_FIELDS.join(', ')}` });
  }
  // "all" is a wildcard of device queries, not a name: here it would match no alarm at all
  for (const field of PLACE_MATCHERS) {
    if (input.matchers[field] === ALL) {
      problems.push({ field: `body.matchers.${field}`, message: `matchers.${field} must not be "all": omit the field instead (a silence without ${field} matches every ${field})` });
    }
  }
  const startsAt = new Date(input.startsAt ?? now);
  const endsAt = new Date(input.endsAt);
  if (Number.isNaN(startsAt.getTime())) problems.push({ field: 'body.startsAt', message: 'startsAt must be an ISO 8601 date-time' });
  if (Number.isNaN(endsAt.getTime())) problems.push({ field: 'body.endsAt', message: 'endsAt must be an ISO 8601 date-time' });
  if (problems.length) return { problems };
  if (startsAt.getTime() - Date.parse(now) > MAX_SILENCE_DAYS * DAY_MS) {
    problems.push({ field: 'body.startsAt', message: `startsAt must be at most ${MAX_SILENCE_DAYS} days from now` });
  } else if (endsAt.getTime() <= startsAt.getTime()) problems.push({ field: 'body.endsAt', message: 'endsAt must be after startsAt' });
  else if (endsAt.getTime() - startsAt.getTime() > MAX_SILENCE_DAYS * DAY_MS) {
    problems.push({ field: 'body.endsAt', message: `endsAt must be at most ${MAX_SILENCE_DAYS} days after startsAt` });
  } else if (endsAt.getTime() <= Date.parse(now)) problems.push({ field: 'body.endsAt', message: 'endsAt must be in the future' });
  return problems.length ? { problems } : { startsAt: startsAt.toISOString(), endsAt: endsAt.toISOString() };
};
