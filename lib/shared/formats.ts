import { fullFormats } from 'ajv-formats/dist/formats';

/**
 * The string formats the generated validators check (scripts/generate.ts compiles with these, and
 * each validator imports them from here). ajv-formats' own, except that a `date-time` must also be
 * an instant JavaScript represents: RFC 3339 allows a leap second (`2026-06-30T23:59:60Z`), which
 * ajv-formats accepts and `Date.parse` answers NaN for, so a handler reading the time (GET /audit's
 * from/to, alarm and device history, availability, silences) failed with 500 instead of refusing it.
 */
type StringFormat = { validate: (text: string) => boolean; compare?: (a: string, b: string) => number | undefined };
const dateTime = fullFormats['date-time'] as StringFormat;

export const formats = {
  email: fullFormats.email,
  uri: fullFormats.uri,
  'date-time': { ...dateTime, validate: (text: string) => dateTime.validate(text) && !Number.isNaN(Date.parse(text)) } satisfies StringFormat,
};
