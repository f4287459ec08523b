import * as alarms from '#lib/alarms/repository/alarms';
import { devices } from '#lib/devices/repository/devices';
import * as rooms from '#lib/rollups/repository/rooms';
import * as watchers from '#lib/watchers/repository';
import { roomKey, type Place } from '#lib/devices/types';
import { logger } from '#lib/shared/log';
import { healSummaries, recountRooms } from '#lib/rollups/recount';
import { applyPlan } from './applyPlan';
import { inhibit } from '#lib/alarms/inhibition/suppress';
import { pass, tally, type EvaluationSummary, type PassOptions } from './pass';
import { quietAt } from './quiet';
import { planAlarms, roomsToRecompute } from './pure/plan';

/**
 * The full pass, a reconciliation (DESIGN D6): notifications left over by an interrupted run,
 * then every active watcher against the whole inventory, alarm writes (each transition's notice
 * written in the same item write), device severities, every room whose devices changed or whose
 * stored status drifted (each once), the summaries, and the new notifications (one digest per
 * watcher and run: lib/notify). Every step is idempotent and re-derived from stored state, so a
 * run cut short by `deadline` (or a crash) is finished by the next one. Runs stop between
 * writes; a store call still in flight at the deadline is cut off there, as a crash would.
 */
export const fullPass = async (options: PassOptions): Promise<EvaluationSummary> =>
  pass(options, async (inTime, summary) => {
    const at = new Date().toISOString();
    const [watcherList, inventory, open, quiet] = await Promise.all([watchers.list(), devices.index(), alarms.open(), quietAt(at)]);
    const plan = await inhibit(planAlarms({ watchers: watcherList, devices: inventory, open, now: at, ...quiet }), watcherList, at);
    if (plan.invalidWatchers.length) logger.warn('watchers with invalid conditions match nothing', { watchers: plan.invalidWatchers });
    const applied = await applyPlan(plan, { devices: inventory, open, watchers: watcherList }, at, inTime);
    Object.assign(summary, tally([applied]));

    // the rooms whose devices changed, and any room whose stored status disagrees (heals lost writes)
    const touched = new Map<string, Place>(applied.rooms.map((room) => [roomKey(room), room]));
    for (const room of roomsToRecompute(await rooms.inPlace({}), inventory, plan.worst)) touched.set(roomKey(room), room);
    if (inTime()) summary.roomsRecomputed = (await recountRooms(touched.values())).length;
    if (inTime()) await healSummaries();
    return true;
  });

export type FullPass = typeof fullPass;
