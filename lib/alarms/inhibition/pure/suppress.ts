import { effectiveParent, episodeKey, parentHolds, parentPlaceOf, suppressionOf, type ParentFacts, type ParentPlace } from './rules';
import type { Place } from '#lib/devices/types';
import type { InhibitedBy, WatcherRecord } from '#lib/watchers/types';
import type { OpenAlarm } from '#lib/alarms/types';

/*
 * Which raises of a plan a parent condition suppresses (docs/guide/rules/alarms.md "A suppressed alarm is marked `suppressedBy` when it is raised, judged from the rollups"). Pure: the
 * caller reads the facts (`parentFacts`, ../facts.ts) and the episodes.
 */

/** What inhibition reads of the evaluator's plan (lib/alarms/engine/pure/plan.ts): the alarms it raises and clears. */
export interface PlanAlarms<R extends { alarm: OpenAlarm } = { alarm: OpenAlarm }> {
  raise: readonly R[];
  clear: readonly { alarm: OpenAlarm }[];
}

/** A raise of an inhibited watcher, with where its parent condition is judged. */
interface JudgedRaise {
  index: number;
  watcherId: string;
  parent: InhibitedBy;
  scope: ParentPlace;
  episode: string;
}

/** The raises whose watcher declares `inhibitedBy`: the only ones whose parents are read. */
export const inhibitedRaises = (raises: readonly { alarm: OpenAlarm }[], watchers: readonly WatcherRecord[]): JudgedRaise[] => {
  const byId = new Map(watchers.map((w) => [w.id, w]));
  const parentOf = new Map(watchers.map((w) => [w.id, effectiveParent(w, byId)] as const));
  return raises.flatMap(({ alarm }, index) => {
    const parent = parentOf.get(alarm.watcherId);
    if (!parent) return [];
    const scope = parentPlaceOf(parent, alarm);
    return [{ index, watcherId: alarm.watcherId, parent, scope, episode: episodeKey(alarm.watcherId, scope) }];
  });
};

/**
 * The parent watchers' firing alarms as the plan leaves them: those read, with the plan's own
 * raises of them added and its clears taken away (a parent and its child often fire in one pass).
 */
export const afterPlan = (facts: ParentFacts, plan: PlanAlarms): ParentFacts => {
  const key = (watcherId: string, place: Place & { devicesn?: string }) => `${watcherId}\u0000${place.devicesn ?? JSON.stringify(place)}`;
  const cleared = new Set(plan.clear.map(({ alarm }) => key(alarm.watcherId, alarm)));
  const firing = new Map<string, Place[]>();
  for (const [watcherId, places] of facts.firing) {
    firing.set(watcherId, places.filter((place) => !cleared.has(key(watcherId, place))));
  }
  for (const { alarm } of plan.raise) if (firing.has(alarm.watcherId)) firing.get(alarm.watcherId)!.push(alarm);
  return { counts: facts.counts, firing };
};

/** The judged raises whose parent holds now. */
export const holding = (judged: readonly JudgedRaise[], facts: ParentFacts): JudgedRaise[] => judged.filter(({ parent, scope }) => parentHolds(parent, scope, facts));

/**
 * The raises, those whose parent holds marked `suppressedBy` with the start of their episode
 * (`since` by episode key; an episode without one, being released, suppresses nothing).
 */
export const suppressRaises = <R extends { alarm: OpenAlarm }>(raises: readonly R[], held: readonly JudgedRaise[], since: ReadonlyMap<string, string | undefined>): R[] => {
  const byIndex = new Map(held.map((judged) => [judged.index, judged]));
  return raises.map((raise, index) => {
    const judged = byIndex.get(index);
    const start = judged && since.get(judged.episode);
    return judged && start ? { ...raise, alarm: { ...raise.alarm, suppressedBy: suppressionOf(judged.parent, judged.scope, start) } } : raise;
  });
};
