/** CORS preflight (one allow-list, answered by our own preflight: docs/adr/0111-cors.md). plugins/cors-preflight.js gives this function an
 * OPTIONS event, without API key, on every path that has an http event. */
import { job } from '#lib/http/contract';

export const jobs = {
  preflight: job({ summary: 'OPTIONS on every path: the CORS headers for an allowed origin', memorySize: 128, events: [] }),
};
