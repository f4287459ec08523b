import http from '#generated/routes/filterRecordsRemove';
import { filterRecords } from '#lib/config';

// DELETE /filters/{id} -> 200 confirming string; 404 "Filter not found"; 400 non-integer id
export const handler = http(async ({ path }) => {
  await filterRecords.remove(Number(path.id));
  return { statusCode: 200, body: `Filter ${path.id} deleted` };
});
