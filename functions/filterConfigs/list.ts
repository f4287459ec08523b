import http from '#generated/routes/filterConfigsList';
import { configsWithin } from '#lib/config';
import { mapListOrPage } from '#lib/store/paging';
import { toListForm } from '#lib/config';

// GET /filtersConfig[?limit=&cursor=] -> 200 every configuration in list form {id, region, locations: [{locationName}]}, by id
// (a bare array), or one page {items, nextCursor}; a scoped caller's only within its scope; 400; 422 bad cursor
export const handler = http(async ({ query, principal }) => ({
  statusCode: 200,
  body: mapListOrPage(await configsWithin({ limit: query.limit ? Number(query.limit) : undefined, cursor: query.cursor }, principal.scope), toListForm),
}));
