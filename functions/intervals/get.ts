import { http } from '#lib/http';
import { intervals } from '#lib/db/intervals';
import validate from '#schemas/generated/intervalById';

// GET /intervals/{id} -> 200 the record; 404 unknown id; 422 non-integer id
export const handler = http<undefined, { id: string }>({ validate, invalidStatus: 422 }, async ({ path }) => ({
  statusCode: 200,
  body: await intervals.get(Number(path.id)),
}));
