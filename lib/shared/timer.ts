/*
 * Durations handed to timers, abort signals and SDK options. Computed budgets are fractions
 * (a third of what is left of a deadline), can be negative (a deadline just passed) or NaN, and
 * the runtime does not take them alike: `AbortSignal.timeout` throws ERR_OUT_OF_RANGE for a
 * non-integer, `setTimeout` turns anything above 2^31 - 1 ms into 1 ms with a warning. So every
 * computed duration goes through `timerMs` on its way to one of them (docs/guide/rules/notify.md "Computed durations are whole, bounded milliseconds; a delivery attempt never throws").
 */

/** The longest delay node's timers honour (about 24.8 days). */
export const MAX_TIMER_MS = 2_147_483_647;

/**
 * `ms` as a timer takes it: a whole number of milliseconds (rounded down: a budget is never
 * overrun), at least `min` (default 1) and at most MAX_TIMER_MS; NaN counts as `min`.
 */
export const timerMs = (ms: number, min = 1): number => {
  if (Number.isNaN(ms)) return min;
  return Math.min(MAX_TIMER_MS, Math.max(min, Math.floor(ms)));
};

/** An abort signal that fires after `ms` (any number: bounded by timerMs). */
export const timeoutSignal = (ms: number): AbortSignal => AbortSignal.timeout(timerMs(ms));

/** Waits `ms` (any number: bounded by timerMs). */
export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, timerMs(ms)));
