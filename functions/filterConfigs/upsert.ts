import http from '#generated/routes/filterConfigsUpsert';
import { filterConfigs } from '#lib/config';
import { fromNestedForm } from '#lib/config';

// POST /filtersConfig/{id} -> 200 confirming string; the nested region -> location -> room tree replaces
// the stored one; 400 invalid tree or a repeated location
export const handler = http(async ({ path, body }) => {
  await filterConfigs.replace(fromNestedForm(Number(path.id), body));
  return { statusCode: 200, body: `Filter configuration ${path.id} upserted` };
});
