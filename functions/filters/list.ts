import { http } from '#lib/http';
import { filters } from '#lib/db/filters';

// GET /filters -> 200 every filter as {id, name}, by id
export const handler = http({ invalidStatus: 400 }, async () => ({
  statusCode: 200,
  body: await filters.list(),
}));
