/** The distinct values stored watchers use, for the dashboard's alarm configuration (spec "filter/*"). */
import { list, routesOf, Type } from './shared';

const values = (what: string, path: string) =>
  routesOf({ permission: 'fleet:read', invalidStatus: 400 })('GET', path, `Distinct ${what} across stored watchers, sorted`, {
    responses: { 200: list(`Every ${what.replace(/s$/, '')} in use`, Type.String()) },
  });

export const routes = {
  dashboards: values('dashboards', 'filter/dashboards'),
  services: values('services', 'filter/alarmservices'),
  types: values('types', 'filter/alarmtypes'),
};
