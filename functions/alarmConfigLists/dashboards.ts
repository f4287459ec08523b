import http from '#generated/routes/alarmConfigListsDashboards';
import { watchers } from '#lib/db/watchers';
import { uniqueSorted } from '#lib/watchers/rules';

// GET /filter/dashboards -> 200 the distinct watcher dashboards, sorted; 500 JSON on a store failure
export const handler = http(async () => ({
  statusCode: 200,
  body: uniqueSorted(await watchers.fieldValues('dashboard')),
}));
