import { http, type Binding } from '#lib/http/index';
import type { RouteContract } from '#lib/http/contract';
import { preflight } from '#lib/http/cors';

/** No contract of its own: the preflight answers for every route (plugins/cors-preflight.js). */
const binding: Binding<RouteContract> = { functionName: 'corsPreflight', invalidStatus: 400 };

// OPTIONS on every path (added by plugins/cors-preflight.js, no API key: browsers send none on a
// preflight) -> 204 with the CORS headers for an origin in CORS_ORIGINS; 403 without any otherwise
export const handler = http(binding, async ({ headers }) => preflight(headers.origin));
