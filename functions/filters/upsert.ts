import { http } from '#lib/http';
import { filters } from '#lib/db/filters';
import type { FilterFields } from '#lib/filters/records';
import validate from '#schemas/generated/filtersUpsert';

// POST /filters/{id} -> 200 confirming string; {name, description, deviceSN?} inserted or updated; 400 invalid
export const handler = http<FilterFields, { id: string }>({ validate, invalidStatus: 400 }, async ({ path, body }) => {
  await filters.upsert(Number(path.id), body);
  return { statusCode: 200, body: `Filter ${path.id} upserted` };
});
