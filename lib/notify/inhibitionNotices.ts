import { isDeepStrictEqual } from 'node:util';
import { firingNow, parentFacts } from '#lib/alarms/inhibition/facts';
import { effectiveParent, parentHolds, parentProblem, sameEpisode, suppressionOf } from '#lib/alarms/inhibition/pure/rules';
import * as inhibitions from '#lib/alarms/inhibition/repository';
import type { Episode } from '#lib/alarms/inhibition/types';
import { silencedBy, type Silence } from '#lib/alarms/pure/silences';
import type { OpenAlarm } from '#lib/alarms/types';
import * as alarms from '#lib/alarms/repository/alarms';
import { evaluationQueue } from '#lib/alarms/repository/evaluationQueue';
import { matchingWindows, openWindowsAt, type MaintenanceTarget, type OpenWindow } from '#lib/maintenance/pure/windows';
import { mapConcurrent } from '#lib/shared/concurrency';
import type { InhibitedBy, WatcherRecord } from '#lib/watchers/types';
import { withVendors } from './maintenanceRelease';
import { audienceOf, notifiedAlarm } from './pure/notice';
import { draftsFor } from './pure/plan';
import type { RunReads } from './runReads';
import type { DeliveryDraft } from './types';

/*
 * The notifier's part of inhibition (the rules, the episodes and the facts live in
 * lib/alarms/inhibition): announcing an episode and telling its release are notifications,
 * drafted and stored as every other digest of a run.
 */

const READS_IN_FLIGHT = 16;

/**
 * Devices and watchers the evaluator has still to evaluate (the queue is written before the
 * change it stands for, and read consistently): a release waits for them, so that an alarm whose
 * device came back with the parent is cleared, not told as still firing.
 */
const awaitingEvaluation = async (): Promise<Set<string>> =>
  new Set((await evaluationQueue.list()).map((entry) => (entry.kind === 'device' ? `device:${entry.devicesn}` : `watcher:${entry.watcherId}`)));

/** Compared field by field: DynamoDB answers a map's keys in an order of its own, not as written. */
const sameParent = (a: InhibitedBy | undefined, b: InhibitedBy): boolean => a !== undefined && isDeepStrictEqual(a, b);

/**
 * Parent episodes (docs/guide/rules/alarms.md "A parent episode is announced once and released once, from a marker per episode"): each open episode is announced once (one
 * `alarms.inhibited` digest to the inhibited watcher's targets: the parent problem and the count of
 * the alarms it suppresses), and released once its parent stopped holding (or its watcher is gone,
 * inactive or no longer inhibited so): the alarms it suppressed that still fire are told in one
 * `alarms.raised` digest (those a silence or an open maintenance window holds now are recorded,
 * not sent), unmarked, then the episode goes. Digest ids are fixed by the episode (and its
 * release instant, fixed once), so racing runs and a run resumed after a crash store nothing twice.
 */
export const collectInhibitions = async (store: (drafts: readonly DeliveryDraft[]) => Promise<boolean>, inTime: () => boolean, now: number, reads: RunReads): Promise<boolean> => {
  const episodes = await inhibitions.all();
  if (episodes.length === 0) return true;
  const [all, facts] = await Promise.all([reads.watchers(), parentFacts(episodes)]);
  const byId = new Map(all.map((w) => [w.id, w]));
  let queued: Set<string> | undefined;
  let quiet: Quiet | undefined;
  const quietNow = async () => (quiet ??= await quietAt(reads, now));
  for (const episode of episodes) {
    if (!inTime()) return false;
    const watcher = byId.get(episode.watcherId);
    const holds = !episode.releasedAt && watcher?.active === true && sameParent(effectiveParent(watcher, byId), episode.parent) && parentHolds(episode.parent, episode.scope, facts);
    // an announced episode whose parent still holds costs nothing more than its facts
    if (holds && episode.announced) continue;
    const mark = suppressionOf(episode.parent, episode.scope, episode.since);
    const suppressed = (await firingNow(episode.watcherId)).filter((alarm) => alarm.suppressedBy && sameEpisode(alarm.suppressedBy, mark));
    // announced once one of its alarms is neither silenced nor held by an open window (docs/guide/rules/alarms.md "A parent problem is not announced while every alarm it suppresses is silenced or in maintenance"): nothing is sent while a window holds them all
    const held = suppressed.length === 0 ? undefined : await quietNow();
    const target = held ? await withVendors(suppressed, held.open) : (alarm: OpenAlarm) => alarm;
    if (!episode.announced && watcher && held && suppressed.some((alarm) => loud(held, now)(alarm, target(alarm)))) {
      const parentName = episode.parent.condition === 'watcher' ? byId.get(episode.parent.watcherId)?.description || undefined : undefined;
      const drafts = digestOf(watcher, 'alarms.inhibited', episode.since, suppressed, `inhibition:${episode.key}`, parentProblem(episode.parent, episode.scope, facts, parentName));
      if (!(await store(drafts))) return false;
      await inhibitions.announced(episode);
    }
    if (holds) continue;
    queued ??= await awaitingEvaluation();
    if (queued.has(`watcher:${episode.watcherId}`) || suppressed.some((alarm) => queued!.has(`device:${alarm.devicesn}`))) continue;
    // an open maintenance window holding one of them holds the release until it closes: told then, once (docs/guide/rules/maintenance.md "A parent's release waits for the maintenance window holding its alarms")
    if (watcher?.active && held && suppressed.some((alarm) => matchingWindows(held.open, target(alarm)).length > 0)) continue;
    if (!(await release(episode, watcher, suppressed, held, store, inTime, now))) return false;
  }
  return true;
};

/** The silences current and the maintenance windows open at `now`: what keeps a digest from being sent. */
interface Quiet {
  active: readonly Silence[];
  open: readonly OpenWindow[];
}

/** The run's silences and windows (read once per run), the windows' openings at `now`. */
const quietAt = async (reads: RunReads, now: number): Promise<Quiet> => {
  const [active, windows] = await Promise.all([reads.silences(), reads.windows()]);
  return { active, open: openWindowsAt(windows, now) };
};

/** Whether an alarm would be sent: neither silenced nor held by an open maintenance window. */
const loud =
  ({ active, open }: Quiet, now: number) =>
  (alarm: OpenAlarm, target: MaintenanceTarget): boolean =>
    silencedBy(alarm, active, new Date(now).toISOString()).length === 0 && matchingWindows(open, target).length === 0;

const digestOf = (watcher: WatcherRecord, type: 'alarms.inhibited' | 'alarms.raised', at: string, alarmList: readonly OpenAlarm[], carrying: string, parent?: string, quiet?: (alarm: OpenAlarm) => boolean) => {
  const quietIds = new Set(alarmList.filter((alarm) => quiet?.(alarm)).map((alarm) => `${alarm.watcherId}:${alarm.devicesn}`));
  return draftsFor(
    {
      type,
      at,
      watcher: { id: watcher.id, description: watcher.description, severity: watcher.severity, type: watcher.type },
      alarms: alarmList.map((alarm) => notifiedAlarm(alarm)),
      audience: audienceOf(watcher),
      carrying,
      ...(parent === undefined ? {} : { parent }),
    },
    (alarm) => quietIds.has(alarm.id),
  );
};

/** The release of one episode: its instant fixed once, the still-firing alarms told (`held`: what quiets them, read when any), unmarked, then the episode deleted. */
const release = async (
  episode: Episode,
  watcher: WatcherRecord | undefined,
  suppressed: readonly OpenAlarm[],
  held: Quiet | undefined,
  store: (drafts: readonly DeliveryDraft[]) => Promise<boolean>,
  inTime: () => boolean,
  now: number,
): Promise<boolean> => {
  const releasedAt = episode.releasedAt ?? (await inhibitions.releasing(episode, new Date(now).toISOString()));
  if (releasedAt === undefined) return true; // released by another run meanwhile
  if (watcher?.active && held && suppressed.length > 0) {
    const at = new Date(now).toISOString();
    const { active, open } = held;
    const target = await withVendors(suppressed, open);
    const quiet = (alarm: OpenAlarm) => silencedBy(alarm, active, at).length > 0 || matchingWindows(open, target(alarm)).length > 0;
    if (!(await store(digestOf(watcher, 'alarms.raised', releasedAt, suppressed, `inhibition:${episode.key}@${episode.since}`, undefined, quiet)))) return false;
  }
  await mapConcurrent(suppressed, READS_IN_FLIGHT, async (alarm) => inTime() && (await alarms.unsuppress(alarm, episode.since)));
  if (!inTime()) return false;
  await inhibitions.close(episode);
  return true;
};
