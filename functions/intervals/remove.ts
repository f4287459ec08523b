import { http } from '#lib/http';
import { intervals } from '#lib/db/intervals';
import validate from '#schemas/generated/intervalById';

// DELETE /intervals/{id} -> 200 confirming string; 404 unknown id; 422 non-integer id
export const handler = http<undefined, { id: string }>({ validate, invalidStatus: 422 }, async ({ path }) => {
  await intervals.remove(Number(path.id));
  return { statusCode: 200, body: `Interval ${path.id} deleted` };
});
