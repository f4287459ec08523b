import { alarms } from '#lib/db/alarms';
import { devices } from '#lib/db/devices';
import { mapConcurrent } from '#lib/devices/concurrent';
import { writesInFlight } from '#lib/devices/recount';
import type { Place } from '#lib/devices/types';
import { mailFor } from './mail';
import type { AlarmPlan } from './plan';
import type { Clear } from './plan';
import type { OpenAlarm } from './types';

/** What a plan's execution changed: the seam for whoever reacts to alarm transitions. */
export interface Applied {
  raised: OpenAlarm[];
  cleared: Clear[];
  updated: OpenAlarm[];
  /** Rooms of the devices whose severity was written: recount these. */
  rooms: Place[];
}

/**
 * Carries out an alarm plan: alarm writes first (each transition's mail in the same item
 * write), then device severities. Every write is conditional or idempotent, with
 * `writesInFlight()` in flight, and none starts after `inTime()` turns false.
 */
export const applyPlan = async (plan: Pick<AlarmPlan, 'raise' | 'clear' | 'update' | 'severities'>, at: string, inTime: () => boolean): Promise<Applied> => {
  const limit = writesInFlight();
  const step = async <T>(items: readonly T[], write: (item: T) => Promise<boolean>): Promise<T[]> => {
    const done = await mapConcurrent(items, limit, async (item) => inTime() && (await write(item)));
    return items.filter((_, i) => done[i]);
  };
  const raised = (await step(plan.raise, ({ alarm }) => alarms.raise(alarm, mailFor('raised', alarm, alarm.notify, at)))).map(({ alarm }) => alarm);
  const cleared = await step(plan.clear, ({ alarm, reason, notify }) => alarms.clear(alarm, at, reason, mailFor('cleared', alarm, notify, at, reason)));
  const updated = await step(plan.update, (alarm) => alarms.update(alarm));
  const written = await step(plan.severities, ({ device, severity }) => devices.setAlarmSeverity(device, severity));
  return { raised, cleared, updated, rooms: written.map(({ device }) => device.details) };
};
