import http from '#generated/routes/intervalsCreate';
import { intervals } from '#lib/config';

// POST /intervals -> 200 the created record with its id; 422 missing or invalid fields
export const handler = http(async ({ body }) => ({
  statusCode: 200,
  body: await intervals.create(body),
}));
