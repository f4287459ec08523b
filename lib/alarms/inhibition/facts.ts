import * as alarms from '#lib/alarms/repository/alarms';
import type { OpenAlarm } from '#lib/alarms/types';
import type { Place } from '#lib/devices/types';
import * as rooms from '#lib/rollups/repository/rooms';
import * as summaries from '#lib/rollups/repository/summaries';
import { mapConcurrent } from '#lib/shared/concurrency';
import type { InhibitedBy } from '#lib/watchers/types';
import { placeKey, type OnlineCounts, type ParentFacts, type ParentPlace } from './pure/rules';

const READS_IN_FLIGHT = 16;

/**
 * The facts the parent conditions over `judged` are decided on, read where they are kept
 * (docs/guide/rules/alarms.md "A suppressed alarm is marked `suppressedBy` when it is raised, judged from the rollups"): each room's aggregate and each location's summary (consistent Gets of
 * the rollups, never the devices), each parent watcher's firing alarms (a consistent Query of its
 * partition). Only what `judged` names is read.
 */
export const parentFacts = async (judged: readonly { parent: InhibitedBy; scope: ParentPlace }[]): Promise<ParentFacts> => {
  const counted = [...new Map(judged.filter(({ parent }) => parent.condition !== 'watcher').map(({ scope }) => [placeKey(scope), scope])).values()];
  const roomScopes = counted.filter((scope): scope is Place => scope.room !== undefined);
  const locations = counted.filter((scope) => scope.room === undefined).map(({ region, location }) => ({ region, location }));
  const parents = [...new Set(judged.flatMap(({ parent }) => (parent.condition === 'watcher' ? [parent.watcherId] : [])))];
  const [roomCounts, locationCounts, firing] = await Promise.all([
    mapConcurrent(roomScopes, READS_IN_FLIGHT, async (place): Promise<[string, OnlineCounts]> => {
      const stored = await rooms.read(place);
      return [placeKey(place), { deviceCount: stored?.aggregate.deviceCount ?? 0, offline: stored?.aggregate.offline ?? 0 }];
    }),
    locations.length === 0 ? [] : summaries.read(locations),
    mapConcurrent(parents, READS_IN_FLIGHT, async (id): Promise<[string, OpenAlarm[]]> => [id, await firingNow(id)]),
  ]);
  return {
    counts: new Map([
      ...roomCounts,
      ...locationCounts.map(({ scope, counts }): [string, OnlineCounts] => [placeKey(scope as ParentPlace), { deviceCount: counts.deviceCount, offline: counts.offline }]),
    ]),
    firing: new Map(firing),
  };
};

/** A watcher's firing alarms, read consistently (its partition): what a run just wrote is seen. */
export const firingNow = async (watcherId: string): Promise<OpenAlarm[]> => (await alarms.openOf(watcherId)).filter((alarm) => alarm.state === 'firing');
