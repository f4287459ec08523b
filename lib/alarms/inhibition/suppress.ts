import type { OpenAlarm } from '#lib/alarms/types';
import { mapConcurrent } from '#lib/shared/concurrency';
import type { WatcherRecord } from '#lib/watchers/types';
import { parentFacts } from './facts';
import { afterPlan, holding, inhibitedRaises, suppressRaises, type PlanAlarms } from './pure/suppress';
import * as inhibitions from './repository';

/**
 * Marks the raises a parent condition suppresses (docs/guide/rules/alarms.md): only when
 * the plan raises alarms of an inhibited watcher are the rollups of their rooms or locations, or
 * their parent watchers' alarms, read (proportional to the raises, never the fleet). The episode of
 * each (watcher, room or location) is opened before any alarm is written under it, and its start
 * is what the alarms carry; the notifier announces and releases it.
 */
export const inhibit = async <R extends { alarm: OpenAlarm }, P extends PlanAlarms<R>>(plan: P, watchers: readonly WatcherRecord[], at: string): Promise<P> => {
  const judged = inhibitedRaises(plan.raise, watchers);
  if (judged.length === 0) return plan;
  const held = holding(judged, afterPlan(await parentFacts(judged), plan));
  if (held.length === 0) return plan;
  const episodes = [...new Map(held.map((j) => [j.episode, j])).values()];
  const opened = await mapConcurrent(episodes, 8, (j) => inhibitions.open({ key: j.episode, watcherId: j.watcherId, parent: j.parent, scope: j.scope, since: at }));
  const since = new Map(opened.map((episode) => [episode.key, episode.releasedAt ? undefined : episode.since]));
  return { ...plan, raise: suppressRaises(plan.raise, held, since) };
};
