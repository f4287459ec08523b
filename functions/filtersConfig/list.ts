import { http } from '#lib/http';
import { filtersConfig } from '#lib/db/filtersConfig';
import { toListForm } from '#lib/filters/config';

// GET /filtersConfig -> 200 every configuration in list form {id, region, locations: [{locationName}]}, by id
export const handler = http({ invalidStatus: 400 }, async () => ({
  statusCode: 200,
  body: (await filtersConfig.list()).map(toListForm),
}));
