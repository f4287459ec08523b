import { http } from '#lib/http';
import { intervals } from '#lib/db/intervals';
import type { Intervals } from '#lib/intervals/fields';
import validate from '#schemas/generated/createInterval';

// POST /intervals -> 200 the created record with its id; 422 missing or invalid fields
export const handler = http<Intervals>({ validate, invalidStatus: 422 }, async ({ body }) => ({
  statusCode: 200,
  body: await intervals.create(body),
}));
