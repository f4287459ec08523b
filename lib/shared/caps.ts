/*
 * Caps per stage, so that no stage grows past what one Query or one answer can hold (docs/adr/0162-caps-per-stage.md), configurable by
 * environment. The unpaged lists the spec answers as bare arrays (GET /watcher/all, GET
 * /filtersConfig) stay under Lambda's 6 MB answer: at most `max` records, each answering at most
 * its share of 5 MiB (`recordShare`), counted in UTF-8 bytes.
 */

import { Invalid } from '#lib/shared/errors';
import { jsonBytes } from './sizes';

/** What an unpaged list may take of Lambda's 6 MB answer (the rest: headers, brackets, margin). */
export const LIST_ANSWER_BYTES = 5 * 1024 * 1024;

/** A cap from the environment: a positive integer, else the default. */
const fromEnv = (variable: string, fallback: number): number => {
  const value = Number(process.env[variable]);
  return Number.isInteger(value) && value > 0 ? value : fallback;
};

export const caps = {
  /** Watchers per stage (`WATCHERS_MAX`). */
  watchers: () => fromEnv('WATCHERS_MAX', 250),
  /** Pending and active silences per stage (`SILENCES_MAX_ACTIVE`). */
  activeSilences: () => fromEnv('SILENCES_MAX_ACTIVE', 200),
  /** Filters configurations per stage (`FILTER_CONFIGS_MAX`). */
  filterConfigs: () => fromEnv('FILTER_CONFIGS_MAX', 100),
  /** Maintenance windows not yet ended per stage (`MAINTENANCE_WINDOWS_MAX`; docs/guide/rules/maintenance.md "Maintenance windows: a cap per stage, and the scope of a silence"). */
  maintenanceWindows: () => fromEnv('MAINTENANCE_WINDOWS_MAX', 200),
  /** Report schedules per stage (`REPORTS_MAX`; docs/guide/rules/reports.md "A report is bounded: ten worst rooms, ten longest outages, 5,000 cleared alarms, 100 schedules"). */
  reports: () => fromEnv('REPORTS_MAX', 100),
};

/** The bytes one record may answer in a list of at most `max`: the list then stays within LIST_ANSWER_BYTES. */
export const recordShare = (max: number): number => Math.floor(LIST_ANSWER_BYTES / max);

/**
 * Refuses (400 naming `field`) a record whose answer would take more than its share of its
 * unpaged list: `max` records (the cap `variable`) of at most their share keep the list within
 * LIST_ANSWER_BYTES.
 */
export const assertListShare = (answered: unknown, cap: { max: number; variable: string }, field: string, what: string): void => {
  const bytes = jsonBytes(answered);
  const share = recordShare(cap.max);
  if (bytes <= share) return;
  throw new Invalid(`The ${what} is too large to list`, [
    {
      field,
      message: `${field}: the ${what} would answer ${bytes} bytes (UTF-8) in its list, over the ${share} each may take (${LIST_ANSWER_BYTES} / ${cap.variable} ${cap.max}); name fewer or shorter values`,
    },
  ]);
};
