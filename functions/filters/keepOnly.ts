import { http } from '#lib/http';
import { filters } from '#lib/db/filters';
import validate from '#schemas/generated/filtersKeepOnly';

// DELETE /filters -> 200 confirming string; deletes every filter whose id is NOT listed ([] deletes all)
export const handler = http<number[]>({ validate, invalidStatus: 400 }, async ({ body }) => {
  const deleted = await filters.keepOnly(body);
  return { statusCode: 200, body: `Deleted ${deleted} filters not in the list` };
});
