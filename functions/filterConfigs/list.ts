import http from '#generated/routes/filterConfigsList';
import { filtersConfig } from '#lib/db/filtersConfig';
import { toListForm } from '#lib/filters/config';

// GET /filtersConfig -> 200 every configuration in list form {id, region, locations: [{locationName}]}, by id
export const handler = http(async () => ({
  statusCode: 200,
  body: (await filtersConfig.list()).map(toListForm),
}));
