import { http } from '#lib/http';
import { filters } from '#lib/db/filters';
import validate from '#schemas/generated/filtersById';

// DELETE /filters/{id} -> 200 confirming string; 404 "Filter not found"; 400 non-integer id
export const handler = http<undefined, { id: string }>({ validate, invalidStatus: 400 }, async ({ path }) => {
  await filters.remove(Number(path.id));
  return { statusCode: 200, body: `Filter ${path.id} deleted` };
});
