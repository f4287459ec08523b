import { PERMISSIONS, type Permission } from '#lib/shared/access';
import { routes, samplePath, type Route } from './routes';

/**
 * The routes grouped by what they need, read from the contracts (DESIGN §5): a test built on
 * these covers a new route without being edited.
 */
const all = await routes();

const needsPermission = (route: Route): route is Route & { contract: { permission: Permission } } =>
  (PERMISSIONS as readonly string[]).includes(route.contract.permission);

/** [method, sample path, permission] of every route that needs a permission. */
export const permissionRoutes = all.filter(needsPermission).map((route) => [route.method, samplePath(route), route.contract.permission] as const);

/** [method, sample path] of every route that needs any bearer token (me, logout, own password, role and service reads). */
export const signedInRoutes = all.filter((route) => route.contract.permission === 'signed-in').map((route) => [route.method, samplePath(route)] as const);

/** [method, sample path] of the routes open to the API key alone in every mode (sign-in, token exchange). */
// a vendor's webhook takes no key and answers 401 without its signature: not one of these
export const publicRoutes = all.filter((route) => route.contract.permission === 'public' && route.private).map((route) => [route.method, samplePath(route)] as const);
