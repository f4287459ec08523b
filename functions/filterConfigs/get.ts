import http from '#generated/routes/filterConfigsGet';
import { filterConfigs } from '#lib/db/filterConfigs';
import { toListForm } from '#lib/filterConfigs/types';

// GET /filtersConfig/{id} -> 200 the configuration in list form; 404 "Filter configuration not found"; 400 non-integer id
export const handler = http(async ({ path }) => ({
  statusCode: 200,
  body: toListForm(await filterConfigs.get(Number(path.id))),
}));
