import { http } from '#lib/http';
import { filtersConfig } from '#lib/db/filtersConfig';
import type { FiltersConfigListForm } from '#lib/filters/config';
import validate from '#schemas/generated/filtersConfigUpsertList';

// POST /filtersConfig -> 200 confirming string; each list-form record inserted or updated (stored rooms
// of remaining locations kept); 400 invalid records, a repeated id or location
export const handler = http<FiltersConfigListForm[]>({ validate, invalidStatus: 400 }, async ({ body }) => {
  await filtersConfig.upsertMany(body);
  return { statusCode: 200, body: `Upserted ${body.length} filter configurations` };
});
