import http from '#generated/routes/intervalsRemove';
import { intervals } from '#lib/config';

// DELETE /intervals/{id} -> 200 confirming string; 404 unknown id; 422 non-integer id
export const handler = http(async ({ path }) => {
  await intervals.remove(Number(path.id));
  return { statusCode: 200, body: `Interval ${path.id} deleted` };
});
