/*
 * Times as the viewer reads them: date, time and zone in the browser's own time zone, and the
 * same instant in UTC for a tooltip (an operator on a call with another site quotes UTC).
 * `timeZone` and `locale` are parameters only so that tests can fix them.
 */

/** "28 Nov 2026, 18:31:02 CET" in the viewer's zone and language. */
export const localTime = (iso: string, timeZone?: string, locale?: string): string =>
  new Intl.DateTimeFormat(locale, { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', second: '2-digit', timeZoneName: 'short', timeZone }).format(
    new Date(iso),
  );

/** "2026-11-28 17:31:02 UTC". */
export const utcTime = (iso: string): string => `${new Date(iso).toISOString().slice(0, 19).replace('T', ' ')} UTC`;
