import http from '#generated/routes/filterRecordsKeepOnly';
import { filterRecords } from '#lib/config';

// DELETE /filters -> 200 confirming string; deletes every filter whose id is NOT listed ([] deletes all)
export const handler = http(async ({ body }) => {
  const deleted = await filterRecords.keepOnly(body);
  return { statusCode: 200, body: `Deleted ${deleted} filters not in the list` };
});
