import http from '#generated/routes/filterRecordsRemove';
import { filters } from '#lib/db/filters';

// DELETE /filters/{id} -> 200 confirming string; 404 "Filter not found"; 400 non-integer id
export const handler = http(async ({ path }) => {
  await filters.remove(Number(path.id));
  return { statusCode: 200, body: `Filter ${path.id} deleted` };
});
