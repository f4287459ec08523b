export { functionDefs, routes, type Route } from '../../scripts/registry';
import type { Route } from '../../scripts/registry';

/** A concrete URL path for a route: every `{param}` replaced by a harmless sample value. */
export const samplePath = (route: Pick<Route, 'path'>): string => `/${route.path.replace(/\{[^}]+\}/g, '1')}`;
