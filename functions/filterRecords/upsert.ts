import http from '#generated/routes/filterRecordsUpsert';
import { filterRecords } from '#lib/config';

// POST /filters/{id} -> 200 confirming string; {name, description, deviceSN?} inserted or updated; 400 invalid
export const handler = http(async ({ path, body }) => {
  await filterRecords.upsert(Number(path.id), body);
  return { statusCode: 200, body: `Filter ${path.id} upserted` };
});
