import http from '#generated/routes/filterRecordsCount';
import { filterRecords } from '#lib/config';

// GET /filters/count -> 200 the number of filters (a bare integer)
export const handler = http(async () => ({
  statusCode: 200,
  body: await filterRecords.count(),
}));
