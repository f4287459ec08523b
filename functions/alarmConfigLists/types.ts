import http from '#generated/routes/alarmConfigListsTypes';
import { watchers } from '#lib/db/watchers';
import { uniqueSorted } from '#lib/watchers/rules';

// GET /filter/alarmtypes -> 200 the distinct watcher types, sorted; 500 JSON on a store failure
export const handler = http(async () => ({
  statusCode: 200,
  body: uniqueSorted(await watchers.fieldValues('type')),
}));
