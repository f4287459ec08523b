import http from '#generated/routes/filterConfigsCount';
import { configCountWithin } from '#lib/config';

// GET /filtersConfig/count -> 200 the number of configurations the caller may list (a bare integer; a scoped caller's
// within its scope)
export const handler = http(async ({ principal }) => ({
  statusCode: 200,
  body: await configCountWithin(principal.scope),
}));
