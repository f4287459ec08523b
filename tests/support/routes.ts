export { routeFiles, routes, validatorName, type Route } from '../../scripts/registry';
import type { Route } from '../../scripts/registry';

/** A concrete URL path for a route: every `{param}` replaced by a harmless sample value. */
export const samplePath = (route: Route): string => `/${route.path.replace(/\{[^}]+\}/g, '1')}`;
