import { http } from '#lib/http';
import { filtersConfig } from '#lib/db/filtersConfig';
import validate from '#schemas/generated/filtersConfigKeepOnly';

// DELETE /filtersConfig -> 200 confirming string; deletes every configuration whose id is NOT listed ([] deletes all)
export const handler = http<number[]>({ validate, invalidStatus: 400 }, async ({ body }) => {
  const deleted = await filtersConfig.keepOnly(body);
  return { statusCode: 200, body: `Deleted ${deleted} filter configurations not in the list` };
});
