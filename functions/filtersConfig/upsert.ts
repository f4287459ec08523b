import { http } from '#lib/http';
import { filtersConfig } from '#lib/db/filtersConfig';
import { fromNestedForm, type FiltersConfigNestedForm } from '#lib/filters/config';
import validate from '#schemas/generated/filtersConfigUpsert';

// POST /filtersConfig/{id} -> 200 confirming string; the nested region -> location -> room tree replaces
// the stored one; 400 invalid tree or a repeated location
export const handler = http<FiltersConfigNestedForm, { id: string }>({ validate, invalidStatus: 400 }, async ({ path, body }) => {
  await filtersConfig.replace(fromNestedForm(Number(path.id), body));
  return { statusCode: 200, body: `Filter configuration ${path.id} upserted` };
});
