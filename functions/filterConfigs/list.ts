import http from '#generated/routes/filterConfigsList';
import { filterConfigs } from '#lib/db/filterConfigs';
import { toListForm } from '#lib/filterConfigs/types';

// GET /filterConfigs -> 200 every configuration in list form {id, region, locations: [{locationName}]}, by id
export const handler = http(async () => ({
  statusCode: 200,
  body: (await filterConfigs.list()).map(toListForm),
}));
