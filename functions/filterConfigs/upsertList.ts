import http from '#generated/routes/filterConfigsUpsertList';
import { filterConfigs } from '#lib/config';

// POST /filterConfigs -> 200 confirming string; each list-form record inserted or updated (stored rooms
// of remaining locations kept); 400 invalid records, a repeated id or location
export const handler = http(async ({ body }) => {
  await filterConfigs.upsertMany(body);
  return { statusCode: 200, body: `Upserted ${body.length} filter configurations` };
});
