import http from '#generated/routes/filterConfigsGet';
import { configOf } from '#lib/config';
import { toListForm } from '#lib/config';

// GET /filtersConfig/{id} -> 200 the configuration in list form (a scoped caller: its locations within the scope); 404 "Filter
// configuration not found", also outside a scoped caller's scope; 400 non-integer id
export const handler = http(async ({ path, principal }) => ({
  statusCode: 200,
  body: toListForm(await configOf(Number(path.id), principal.scope)),
}));
