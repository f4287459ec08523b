import { http } from '#lib/http';
import { intervals } from '#lib/db/intervals';
import type { Intervals } from '#lib/intervals/fields';
import validate from '#schemas/generated/updateInterval';

// PUT /intervals/{id} -> 200 the updated record; 404 unknown id; 422 invalid id or values
export const handler = http<Partial<Intervals>, { id: string }>(
  { validate, invalidStatus: 422 },
  async ({ path, body }) => ({
    statusCode: 200,
    body: await intervals.update(Number(path.id), body),
  }),
);
