import http from '#generated/routes/filterConfigsCount';
import { filtersConfig } from '#lib/db/filtersConfig';

// GET /filtersConfig/count -> 200 the number of configurations (a bare integer)
export const handler = http(async () => ({
  statusCode: 200,
  body: await filtersConfig.count(),
}));
