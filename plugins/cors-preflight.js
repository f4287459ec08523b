'use strict';

/**
 * CORS follows one rule, lib/http/cors.ts, deployed and local alike, so that a browser sees the same answers everywhere (docs/adr/0111-cors.md).
 *
 * 1. Preflight: API Gateway REST answers OPTIONS only where a method is declared, so this gives
 *    the function `corsPreflight` (schemas/cors.ts) an OPTIONS event, without API
 *    key, on every path that has an http event. Paths are read from the declared events, so new
 *    routes are covered without editing anything.
 * 2. serverless-offline (v14, REST events) reflects ANY Origin with `allow-credentials: true` in a
 *    hapi onPreResponse hook. Under `serverless offline` this adds a later hook that puts back
 *    exactly the Access-Control-* headers (and, for OPTIONS, the status) our handler answered.
 *    hapi's own route CORS is kept to CORS_ORIGINS (custom.serverless-offline.corsAllowOrigin).
 */
class CorsPreflight {
  constructor(serverless) {
    this.serverless = serverless;
    this.hooks = {
      initialize: () => this.addPreflightRoutes(),
      'before:offline:start:init': () => this.keepHandlerCorsHeaders(),
      'before:offline:start': () => this.keepHandlerCorsHeaders(),
    };
  }

  addPreflightRoutes() {
    const { service } = this.serverless;
    const paths = new Set();
    for (const fn of Object.values(service.functions ?? {})) {
      for (const event of fn?.events ?? []) {
        const http = event?.http;
        if (!http) continue;
        const [method, path] = typeof http === 'string' ? http.split(/\s+/) : [http.method, http.path];
        if (String(method).toLowerCase() !== 'options') paths.add(String(path).replace(/^\/+/, ''));
      }
    }
    const preflight = service.functions.corsPreflight;
    if (!preflight) throw new Error('schemas/cors.ts must declare the job preflight (corsPreflight)');
    preflight.events = [...paths].sort().map((path) => ({ http: { method: 'options', path, private: false } }));
  }

  keepHandlerCorsHeaders() {
    // hapi's route CORS (added at response time, after every hook) gets the same allow-list;
    // an origin no browser sends when the list is empty, since hapi refuses an empty one
    const custom = (this.serverless.service.custom ??= {});
    const offline = (custom['serverless-offline'] ??= {});
    offline.corsAllowOrigin = process.env.CORS_ORIGINS?.replace(/\s+/g, '') || 'https://cors-origins-empty.invalid';
    offline.corsDisallowCredentials = true;
    const hapi = require(require.resolve('@hapi/hapi', { paths: [this.serverless.config.servicePath] }));
    // hapi exports a factory; its servers share one class, reached through a throwaway instance
    const server = Object.getPrototypeOf(hapi.server({ autoListen: false }));
    if (server.start.keepsHandlerCors) return;
    const start = server.start;
    const isCors = (name) => name.toLowerCase().startsWith('access-control-');
    server.start = function startKeepingHandlerCors(...args) {
      // after the handler: what it answered
      this.ext('onPostHandler', (request, h) => {
        const response = request.response;
        if (!response.isBoom) {
          const headers = Object.entries(response.headers ?? {}).filter(([name]) => isCors(name));
          request.plugins.handlerCors = { headers, statusCode: response.statusCode };
        }
        return h.continue;
      });
      // after serverless-offline's own onPreResponse: undo its reflection of any origin
      this.ext('onPreResponse', (request, h) => {
        const response = request.response.isBoom ? request.response.output : request.response;
        for (const name of Object.keys(response.headers ?? {})) if (isCors(name)) delete response.headers[name];
        const answered = request.plugins.handlerCors;
        if (answered) {
          for (const [name, value] of answered.headers) response.headers[name] = value;
          if (request.method === 'options') response.statusCode = answered.statusCode;
        }
        return h.continue;
      });
      return start.apply(this, args);
    };
    server.start.keepsHandlerCors = true;
  }
}

module.exports = CorsPreflight;
