import { http } from '#lib/http';
import { filtersConfig } from '#lib/db/filtersConfig';
import validate from '#schemas/generated/filtersConfigById';

// DELETE /filtersConfig/{id} -> 200 confirming string; 404 "Filter configuration not found"; 400 non-integer id
export const handler = http<undefined, { id: string }>({ validate, invalidStatus: 400 }, async ({ path }) => {
  await filtersConfig.remove(Number(path.id));
  return { statusCode: 200, body: `Filter configuration ${path.id} deleted` };
});
