import http from '#generated/routes/filterRecordsGet';
import { filterOf } from '#lib/config';

// GET /filters/{id} -> 200 the filter record; 404 "Filter not found", also when it names a device outside a scoped
// caller's scope; 400 non-integer id
export const handler = http(async ({ path, principal }) => ({
  statusCode: 200,
  body: await filterOf(Number(path.id), principal.scope),
}));
