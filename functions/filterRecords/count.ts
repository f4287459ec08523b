import http from '#generated/routes/filterRecordsCount';
import { filters } from '#lib/db/filters';

// GET /filters/count -> 200 the number of filters (a bare integer)
export const handler = http(async () => ({
  statusCode: 200,
  body: await filters.count(),
}));
