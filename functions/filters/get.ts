import { http } from '#lib/http';
import { filters } from '#lib/db/filters';
import validate from '#schemas/generated/filtersById';

// GET /filters/{id} -> 200 the filter record; 404 "Filter not found"; 400 non-integer id
export const handler = http<undefined, { id: string }>({ validate, invalidStatus: 400 }, async ({ path }) => ({
  statusCode: 200,
  body: await filters.get(Number(path.id)),
}));
