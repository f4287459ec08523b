import { http } from '#lib/http';
import { intervals } from '#lib/db/intervals';

// GET /intervals -> 200 every interval settings record, by id
export const handler = http({ invalidStatus: 422 }, async () => ({
  statusCode: 200,
  body: await intervals.list(),
}));
