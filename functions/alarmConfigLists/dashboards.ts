import http from '#generated/routes/alarmConfigListsDashboards';
import { uniqueSorted } from '#lib/shared/names';
import { fieldValuesWithin } from '#lib/watchers/reach';

// GET /filter/dashboards -> 200 the distinct watcher dashboards (of the watchers the caller reaches: docs/guide/rules/access.md "The alarm configuration lists answer the watchers the caller reaches"), sorted; 500 JSON on a store failure
export const handler = http(async ({ principal }) => ({
  statusCode: 200,
  body: uniqueSorted(await fieldValuesWithin('dashboard', principal.scope)),
}));
