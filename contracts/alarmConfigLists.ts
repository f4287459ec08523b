/** The distinct values stored watchers use, for the dashboard's alarm configuration (spec "filter/*"). */
import { route, type RouteContract } from '#lib/http/contract';
import { list, Type } from './shared';

const values = (what: string, path: string) =>
  route({
    method: 'GET',
    path,
    summary: `Distinct ${what} across stored watchers, sorted`,
    access: 'key',
    invalidStatus: 400,
    responses: { 200: list(`Every ${what.replace(/s$/, '')} in use`, Type.String()) },
  }) satisfies RouteContract;

export const routes = {
  dashboards: values('dashboards', 'filter/dashboards'),
  services: values('services', 'filter/alarmservices'),
  types: values('types', 'filter/alarmtypes'),
};
