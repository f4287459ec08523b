import http from '#generated/routes/alarmConfigListsTypes';
import { uniqueSorted } from '#lib/shared/names';
import * as watchers from '#lib/db/watchers';

// GET /filter/alarmtypes -> 200 the distinct watcher types, sorted; 500 JSON on a store failure
export const handler = http(async () => ({
  statusCode: 200,
  body: uniqueSorted(await watchers.fieldValues('type')),
}));
