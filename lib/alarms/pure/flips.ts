import { LIMITS } from '#lib/watchers/types';

// The flips of a (watcher, device) pair: when its alarms fired and cleared lately, kept on its alarm item across its alarms,
// so that flapping (docs/guide/rules/alarms.md "A flapping device keeps one alarm open") counts them.

const MINUTE_MS = 60_000;
/** The longest flapping window and the most transitions a watcher may count: older or further flips never matter. */
const KEPT = { ms: LIMITS.flapWindowMinutes.max * MINUTE_MS, count: LIMITS.flapTransitions.max };

/** The pair's flips with one more at `at`, those no watcher could count dropped. Pure. */
export const nextFlips = (previous: readonly string[] | undefined, at: string): string[] => {
  const since = Date.parse(at) - KEPT.ms;
  return [...(previous ?? []).filter((t) => Date.parse(t) > since), at].slice(-KEPT.count);
};

/** How many of `flips` fall within the `windowMinutes` up to `now`. */
export const flipsWithin = (flips: readonly string[], now: string, windowMinutes: number): number =>
  flips.filter((t) => Date.parse(t) > Date.parse(now) - windowMinutes * MINUTE_MS).length;
