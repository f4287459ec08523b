import * as alarms from '#lib/alarms/repository/alarms';
import { devices } from '#lib/devices/repository/devices';
import * as rooms from '#lib/rollups/repository/rooms';
import { recountRooms } from '#lib/rollups/recount';
import { mapConcurrent } from '#lib/shared/concurrency';
import { LEASE_MS, withLease } from './lease';
import { planRepair } from './pure/repair';
import { sleep as pause } from '#lib/shared/timer';

interface RepairSummary {
  devicesFixed: number;
  roomsRecomputed: number;
}

const WRITES_IN_FLIGHT = 8;

/**
 * Makes device severities and room statuses agree with the open alarms (planRepair), under
 * the evaluator's lease; undefined while another run holds it. Raises, clears and mails nothing.
 */
const repairRoomStatuses = async (): Promise<RepairSummary | undefined> =>
  withLease(async ({ holding }) => {
    const [inventory, open, stored] = await Promise.all([devices.index(), alarms.open(), rooms.inPlace({})]);
    const plan = planRepair({ devices: inventory, open, rooms: stored });
    const fixed = await mapConcurrent(plan.severities, WRITES_IN_FLIGHT, async ({ device, severity }) => holding() && devices.setAlarmSeverity(device, severity));
    // each room once, and the summaries of their scopes moved by what changed (lib/rollups/recount.ts)
    const recomputed = holding() ? await recountRooms(plan.rooms) : [];
    return { devicesFixed: fixed.filter(Boolean).length, roomsRecomputed: recomputed.length };
  });

/**
 * After a crash (kill -9 mid-run) the stored room statuses may lag the open alarms, and the dead
 * run's lease is held until it lapses: repair as soon as it does, within LEASE_MS and a
 * little. Run by `npm start` before it serves.
 */
export const repairAfterRestart = async (retryMs = 500): Promise<RepairSummary | undefined> => {
  const giveUpAt = Date.now() + LEASE_MS + 5_000;
  for (;;) {
    const summary = await repairRoomStatuses();
    if (summary || Date.now() > giveUpAt) return summary;
    await pause(retryMs);
  }
};
