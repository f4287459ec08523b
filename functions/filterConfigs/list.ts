import http from '#generated/routes/filterConfigsList';
import { filterConfigs } from '#lib/db/filterConfigs';
import { mapListOrPage } from '#lib/store/paging';
import { toListForm } from '#lib/filterConfigs/types';

// GET /filtersConfig[?limit=&cursor=] -> 200 every configuration in list form {id, region, locations: [{locationName}]}, by id
// (a bare array), or one page {items, nextCursor}; 400; 422 bad cursor
export const handler = http(async ({ query }) => ({
  statusCode: 200,
  body: mapListOrPage(await filterConfigs.listOrPage({ limit: query.limit ? Number(query.limit) : undefined, cursor: query.cursor }), toListForm),
}));
