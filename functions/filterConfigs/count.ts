import http from '#generated/routes/filterConfigsCount';
import { filterConfigs } from '#lib/db/filterConfigs';

// GET /filtersConfig/count -> 200 the number of configurations (a bare integer)
export const handler = http(async () => ({
  statusCode: 200,
  body: await filterConfigs.count(),
}));
