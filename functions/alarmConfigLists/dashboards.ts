import http from '#generated/routes/alarmConfigListsDashboards';
import { uniqueSorted } from '#lib/shared/names';
import * as watchers from '#lib/db/watchers';

// GET /filter/dashboards -> 200 the distinct watcher dashboards, sorted; 500 JSON on a store failure
export const handler = http(async () => ({
  statusCode: 200,
  body: uniqueSorted(await watchers.fieldValues('dashboard')),
}));
