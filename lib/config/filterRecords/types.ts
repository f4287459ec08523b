import type { ErrorDetail } from '#lib/shared/errors';

/** Largest id a client may choose: ids sort inside 15-digit zero-padded keys. */
export const MAX_FILTER_ID = 999_999_999_999_999;
/** Upsert lists and keep-lists are bounded so one request stays one bounded unit of work. */
export const MAX_UPSERT_ITEMS = 1_000;
export const MAX_KEEP_IDS = 10_000;

export interface FilterRecord {
  id: number;
  name: string;
  description?: string;
  deviceSN?: string;
}

/** The fields a write may carry; `deviceSN: null` removes the association. */
export interface FilterFields {
  name?: string;
  description?: string;
  deviceSN?: string | null;
}

export interface FilterUpsert extends FilterFields {
  id: number;
  name: string;
}

/** What `GET /filters` shows of each filter (spec: "array of filter records (id, name)"). */
export const toSummary = ({ id, name }: FilterRecord): Pick<FilterRecord, 'id' | 'name'> => ({ id, name });

/**
 * Field-level problems for ids repeated inside one list body: two entries for one id would race
 * each other, so the request is refused instead of answering a state nobody asked for.
 */
export const duplicateIds = (items: readonly { id: number }[], field = 'body'): ErrorDetail[] => {
  const seen = new Set<number>();
  const details: ErrorDetail[] = [];
  items.forEach(({ id }, index) => {
    if (seen.has(id)) details.push({ field: `${field}[${index}].id`, message: `${field}[${index}].id repeats id ${id}` });
    seen.add(id);
  });
  return details;
};
