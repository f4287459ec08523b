import http from '#generated/routes/filterConfigsKeepOnly';
import { filterConfigs } from '#lib/config';

// DELETE /filterConfigs -> 200 confirming string; deletes every configuration whose id is NOT listed ([] deletes all)
export const handler = http(async ({ body }) => {
  const deleted = await filterConfigs.keepOnly(body);
  return { statusCode: 200, body: `Deleted ${deleted} filter configurations not in the list` };
});
