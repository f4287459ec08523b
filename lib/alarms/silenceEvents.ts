import * as alarms from '#lib/alarms/repository/alarms';
import { viewOf, type AlarmView } from '#lib/alarms/repository/alarms';
import { announceStored, listening } from '#lib/alarms/repository/changes';
import * as silences from '#lib/alarms/repository/silences';
import { logger } from '#lib/shared/log';
import type { AccessScope } from '#lib/shared/access';
import { mapConcurrent } from '#lib/shared/concurrency';
import { answeredSilences, matches, silencedBy, silenceStatus, type Silence, type SilenceInput } from './pure/silences';
import { createSilence, endSilence, type SilenceAnswer } from './silences';

/*
 * Silences are never written onto alarms (what a silence matches is computed when an alarm is
 * answered: docs/guide/rules/alarms.md "Silences match by equality and are computed on answer, never stored on alarms"), so starting or
 * ending one is one write; what changes for dashboards is announced here, after that write,
 * through the same seam as the other alarm events (lib/alarms/repository/changes.ts, live pushes):
 * `silenced` for each firing alarm a new active silence matches, `unsilenced` for each one a
 * silence ended early leaves silenced by none, so that a dashboard shows what GET /alarms
 * answers (docs/guide/rules/live.md "Silences announce what they change").
 * Each alarm carries `silencedBy` as GET /alarms answers it then. Only the two routes that
 * start and end silences import this (and the push); reading silences costs nothing of it.
 */

/** Alarms announced at once (each announcement is a push fanned out in parallel itself). */
const IN_FLIGHT = 8;
/**
 * How long a silence route waits for its announcement. A silence over thousands of firing
 * alarms announces each; under load that took longer than the function's timeout, so the route
 * answered 5xx after its write. Past the budget no further alarm is announced:
 * dashboards see the silence in their next GET /alarms.
 */
export const ANNOUNCE_BUDGET_MS = 2_000;

/** Runs an announcement for at most ANNOUNCE_BUDGET_MS; it never fails the route (logged instead). */
const bestEffort = async (what: string, silenceId: string, announce: (inTime: () => boolean) => Promise<void>): Promise<void> => {
  const until = Date.now() + ANNOUNCE_BUDGET_MS;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), ANNOUNCE_BUDGET_MS)));
  const done = announce(() => Date.now() < until).then(
    () => 'done' as const,
    (error: unknown) => {
      logger.warn(`silence ${what}, its announcement failed`, { silenceId, reason: error instanceof Error ? error.name : String(error) });
      return 'failed' as const;
    },
  );
  const outcome = await Promise.race([done, late]);
  clearTimeout(timer);
  if (outcome === 'late') logger.warn(`silence ${what}, its announcement cut short at its budget`, { silenceId, budgetMs: ANNOUNCE_BUDGET_MS });
};

/**
 * The firing alarms a silence matches. With a watcher among its matchers: that watcher's
 * partition (by key). Otherwise no key holds open alarms by place or device, so it is the
 * firing index narrowed by the silence's place (a FilterExpression, the cost of GET
 * /alarms?region=…&room=…: O(firing alarms), never the history).
 */
const firingMatching = async ({ matchers }: Silence): Promise<AlarmView[]> => {
  const found = matchers.watcherId
    ? (await alarms.openOf(matchers.watcherId)).filter((alarm) => alarm.state === 'firing').map(viewOf)
    : ((await alarms.list({ region: matchers.region, location: matchers.location, room: matchers.room, state: 'firing' }, {})) as AlarmView[]);
  return found.filter((alarm) => matches(matchers, alarm));
};

/** The silences current at `now` as they are after this write (the index may lag the write a moment). */
const currentAfter = async (now: string, stored: Silence, stillActive: boolean): Promise<Silence[]> => {
  const others = (await silences.current(now)).filter((silence) => silence.id !== stored.id);
  return stillActive ? [...others, stored] : others;
};

/** After a silence was stored: `silenced` for every firing alarm it silences now (none when it starts later). */
const announceSilenced = async (silence: Silence, now: string, inTime: () => boolean): Promise<void> => {
  if (!listening() || silenceStatus(silence, now) !== 'active') return;
  const [matching, current] = await Promise.all([firingMatching(silence), currentAfter(now, silence, true)]);
  await mapConcurrent(matching, IN_FLIGHT, async (alarm) => {
    if (inTime()) await announceStored({ kind: 'alarm', event: 'silenced', at: now, alarm: { ...alarm, ...answeredSilences(silencedBy(alarm, current, now)) } });
  });
};

/** After a silence was ended at `endedAt`: `unsilenced` for every firing alarm no other silence still silences. */
const announceUnsilenced = async (ended: Silence, endedAt: string, inTime: () => boolean): Promise<void> => {
  if (!listening()) return;
  const [matching, current] = await Promise.all([firingMatching(ended), currentAfter(endedAt, ended, false)]);
  const freed = matching.filter((alarm) => silencedBy(alarm, current, endedAt).length === 0);
  await mapConcurrent(freed, IN_FLIGHT, async (alarm) => {
    if (inTime()) await announceStored({ kind: 'alarm', event: 'unsilenced', at: endedAt, alarm: { ...alarm, ...answeredSilences([]) } });
  });
};

/**
 * POST /silences: creates the silence, then announces the alarms it silences. The announcement
 * is best effort: its reads time out under load, and a create that answered 5xx after its write
 * had clients retry into duplicates. Dashboards that miss it see the silence
 * in the next GET /alarms.
 */
export const createSilenceAndAnnounce = async (input: SilenceInput, createdBy: string, scope: AccessScope = []): Promise<SilenceAnswer> => {
  const created = await createSilence(input, createdBy, scope);
  await bestEffort('stored', created.id, (inTime) => announceSilenced(created, created.createdAt, inTime));
  return created;
};

/** DELETE /silences/{id}: ends the silence, then announces the alarms it no longer silences (best effort, as a create's). */
export const endSilenceAndAnnounce = async (id: string, scope: AccessScope = []): Promise<SilenceAnswer> => {
  const calledAt = new Date().toISOString();
  const ended = await endSilence(id, scope);
  // only when this call ended it (not an earlier one), and it had started (a future one never silenced anything)
  if (ended.endedAt && ended.endedAt >= calledAt && ended.startsAt < ended.endedAt) {
    const endedAt = ended.endedAt;
    await bestEffort('ended', ended.id, (inTime) => announceUnsilenced(ended, endedAt, inTime));
  }
  return ended;
};
