/** Distinct strings (anything else dropped), ordinal (code-unit) order: the same list on every machine (DESIGN D1). */
export const uniqueSorted = (values: Iterable<unknown>): string[] =>
  [...new Set([...values].filter((value): value is string => typeof value === 'string'))].sort((a, b) =>
    a < b ? -1 : a > b ? 1 : 0,
  );
