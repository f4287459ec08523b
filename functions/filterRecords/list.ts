import http from '#generated/routes/filterRecordsList';
import { filterRecords } from '#lib/config';

// GET /filters -> 200 every filter as {id, name}, by id
export const handler = http(async () => ({
  statusCode: 200,
  body: await filterRecords.list(),
}));
