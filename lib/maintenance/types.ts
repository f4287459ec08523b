import type { ScheduleSpec } from './pure/schedule';

/**
 * What a maintenance window matches: the same as a silence, so one vocabulary holds alarms back: a silence's matchers and the device's
 * vendor. Every field given must equal the alarm's or device's own (exact, case-sensitive).
 */
export interface WindowMatchers {
  region?: string;
  location?: string;
  room?: string;
  devicesn?: string;
  watcherId?: string;
  vendor?: string;
}

export const WINDOW_MATCHER_FIELDS = ['region', 'location', 'room', 'devicesn', 'watcherId', 'vendor'] as const satisfies readonly (keyof WindowMatchers)[];

/** A window as clients send it (POST, and PUT, which replaces it whole). */
export interface WindowInput {
  matchers: WindowMatchers;
  schedule: ScheduleSpec;
  /** Openings start at or after it (absent: the schedule holds from any time on). */
  startsAt?: string;
  /** Openings start before it; one under way then runs its whole length (absent: no end). */
  endsAt?: string;
  comment: string;
}

/** A window as stored and answered (its zone always resolved). */
export interface MaintenanceWindow {
  id: string;
  matchers: WindowMatchers;
  schedule: ScheduleSpec & { timeZone: string };
  startsAt?: string;
  endsAt?: string;
  comment: string;
  createdBy: string;
  createdAt: string;
  updatedAt: string;
}
