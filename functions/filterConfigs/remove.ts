import http from '#generated/routes/filterConfigsRemove';
import { filterConfigs } from '#lib/config';

// DELETE /filtersConfig/{id} -> 200 confirming string; 404 "Filter configuration not found"; 400 non-integer id
export const handler = http(async ({ path }) => {
  await filterConfigs.remove(Number(path.id));
  return { statusCode: 200, body: `Filter configuration ${path.id} deleted` };
});
