import http from '#generated/routes/filterConfigsGet';
import { filtersConfig } from '#lib/db/filtersConfig';
import { toListForm } from '#lib/filters/config';

// GET /filtersConfig/{id} -> 200 the configuration in list form; 404 "Filter configuration not found"; 400 non-integer id
export const handler = http(async ({ path }) => ({
  statusCode: 200,
  body: toListForm(await filtersConfig.get(Number(path.id))),
}));
