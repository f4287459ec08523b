/** How long cleared alarms, device connectivity changes and ended silences are kept: ALARM_HISTORY_DAYS (default 90). */
const DEFAULT_HISTORY_DAYS = 90;
export const historyDays = (env: Record<string, string | undefined> = process.env): number => {
  const days = Number(env.ALARM_HISTORY_DAYS);
  return Number.isInteger(days) && days > 0 ? days : DEFAULT_HISTORY_DAYS;
};

/** The TTL (epoch seconds) of a record made at `at`: `historyDays` later. */
export const historyExpiry = (at: string, days = historyDays()): number => Math.floor(Date.parse(at) / 1000) + days * 24 * 60 * 60;
