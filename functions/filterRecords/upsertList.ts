import http from '#generated/routes/filterRecordsUpsertList';
import { filterRecords } from '#lib/config';

// POST /filters -> 200 confirming string; each record inserted or updated; 400 invalid records or a repeated id
export const handler = http(async ({ body }) => {
  await filterRecords.upsertMany(body);
  return { statusCode: 200, body: `Upserted ${body.length} filters` };
});
