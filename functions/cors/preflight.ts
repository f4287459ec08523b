import { http } from '#lib/http';
import { preflight } from '#lib/http/cors';

// OPTIONS on every path (added by plugins/cors-preflight.js, no API key: browsers send none on a
// preflight) -> 204 with the CORS headers for an origin in CORS_ORIGINS; 403 without any otherwise
export const handler = http({}, async ({ headers }) => preflight(headers.origin));
