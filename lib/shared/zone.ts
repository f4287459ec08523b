/**
 * Wall-clock time in an IANA time zone, with Intl alone (Temporal is not in Node 20;
 * docs/guide/rules/maintenance.md "Maintenance schedules with Intl alone").
 * A wall-clock time is written as "local ms": the epoch ms the same calendar date and time would
 * have in UTC, so that calendar arithmetic (days, minutes) is plain addition.
 *
 * Where the wall clock skips (spring forward) a local time that does not exist is taken at the
 * first instant after the gap, i.e. the transition itself; where it repeats (fall back) an
 * ambiguous local time is taken at its first occurrence (the earlier instant).
 */

export const MINUTE_MS = 60_000;
export const DAY_MS = 86_400_000;

/** IANA names: letters, digits, `_`, `+`, `-`, segments joined by `/` (offsets such as `+01:00` are not zones). */
const IANA_NAME = /^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/;

const formatters = new Map<string, Intl.DateTimeFormat>();
const formatterOf = (zone: string): Intl.DateTimeFormat => {
  let formatter = formatters.get(zone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(zone, formatter);
  }
  return formatter;
};

let known: Map<string, string> | undefined;
/** Intl's canonical zone names by their lower case. */
const knownNames = () => (known ??= new Map(Intl.supportedValuesOf('timeZone').map((zone) => [zone.toLowerCase(), zone])));

/**
 * The zone's name to store, or undefined when Intl knows no such zone. The letter case Intl
 * resolves is taken (`europe/berlin` -> `Europe/Berlin`); a name Intl maps to another zone's
 * (`Asia/Kolkata` -> `Asia/Calcutta`, `EST` -> `America/Panama`) is kept as sent.
 */
export const timeZoneName = (name: string): string | undefined => {
  if (!IANA_NAME.test(name)) return undefined;
  try {
    const resolved = new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
    return resolved.toLowerCase() === name.toLowerCase() ? resolved : (knownNames().get(name.toLowerCase()) ?? name);
  } catch {
    return undefined;
  }
};

/** The wall clock of `zone` at instant `ms`, as local ms (whole seconds). */
export const wallClockAt = (zone: string, ms: number): number => {
  const parts: Record<string, number> = {};
  for (const part of formatterOf(zone).formatToParts(new Date(ms))) if (part.type !== 'literal') parts[part.type] = Number(part.value);
  return Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!, parts.second!);
};

/** The zone's offset from UTC at instant `ms`, in ms (CEST: +7,200,000). */
export const offsetAt = (zone: string, ms: number): number => wallClockAt(zone, ms) - Math.floor(ms / 1000) * 1000;

/** The local day number (days since 1970-01-01 on the zone's calendar) at instant `ms`. */
export const localDayAt = (zone: string, ms: number): number => Math.floor(wallClockAt(zone, ms) / DAY_MS);

/**
 * The instant the wall clock of `zone` shows `local` (local ms, whole seconds): the first of two
 * when it shows it twice, the transition when it never shows it. Assumes at most one offset change
 * within a day of it, as every zone's rules do.
 */
export const instantOf = (zone: string, local: number): number => {
  const before = offsetAt(zone, local - DAY_MS);
  const after = offsetAt(zone, local + DAY_MS);
  const candidates = [...new Set([before, after])].map((offset) => local - offset).filter((ms) => wallClockAt(zone, ms) === local);
  if (candidates.length > 0) return Math.min(...candidates);
  // a gap: `local - after` lies before the transition, `local - before` after it; find it to the second
  let lo = Math.floor((local - after) / 1000);
  let hi = Math.ceil((local - before) / 1000);
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (offsetAt(zone, mid * 1000) === after) hi = mid;
    else lo = mid;
  }
  return hi * 1000;
};
