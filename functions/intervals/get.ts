import http from '#generated/routes/intervalsGet';
import { intervals } from '#lib/config';

// GET /intervals/{id} -> 200 the record; 404 unknown id; 422 non-integer id
export const handler = http(async ({ path }) => ({
  statusCode: 200,
  body: await intervals.get(Number(path.id)),
}));
