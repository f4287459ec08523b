import http from '#generated/routes/intervalsUpdate';
import { intervals } from '#lib/config';

// PUT /intervals/{id} -> 200 the updated record; 404 unknown id; 422 invalid id or values
export const handler = http(async ({ path, body }) => ({
  statusCode: 200,
  body: await intervals.update(Number(path.id), body),
}));
