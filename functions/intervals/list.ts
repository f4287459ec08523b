import http from '#generated/routes/intervalsList';
import { intervals } from '#lib/config';

// GET /intervals -> 200 every interval settings record, by id
export const handler = http(async () => ({
  statusCode: 200,
  body: await intervals.list(),
}));
