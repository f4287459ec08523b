import { http } from '#lib/http';
import { filters } from '#lib/db/filters';
import type { FilterUpsert } from '#lib/filters/records';
import validate from '#schemas/generated/filtersUpsertList';

// POST /filters -> 200 confirming string; each record inserted or updated; 400 invalid records or a repeated id
export const handler = http<FilterUpsert[]>({ validate, invalidStatus: 400 }, async ({ body }) => {
  await filters.upsertMany(body);
  return { statusCode: 200, body: `Upserted ${body.length} filters` };
});
