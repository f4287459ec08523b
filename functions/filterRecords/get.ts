import http from '#generated/routes/filterRecordsGet';
import { filterRecords } from '#lib/db/filterRecords';

// GET /filters/{id} -> 200 the filter record; 404 "Filter not found"; 400 non-integer id
export const handler = http(async ({ path }) => ({
  statusCode: 200,
  body: await filterRecords.get(Number(path.id)),
}));
