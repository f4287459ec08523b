/**
 * The browsable API docs of `npm start`: Swagger UI from the swagger-ui-dist package (no CDN)
 * over docs/openapi.json, at http://localhost:${DOCS_PORT}/docs. Local only and not keyed:
 * it serves documentation, never data. "Try it out" needs the x-api-key (Authorize button).
 * Beside them, a webhook receiver for the guide's channel examples, so that they need no public
 * host: POST /hooks/<name> answers 204 and keeps the request, GET /hooks lists the latest.
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join, resolve } from 'node:path';
import type { Asset } from './board';

const root = resolve(__dirname, '..', '..');
const assetsDir = join(root, 'node_modules', 'swagger-ui-dist');
const assets: Record<string, string> = {
  'swagger-ui.css': 'text/css',
  'swagger-ui-bundle.js': 'text/javascript',
  'swagger-ui-standalone-preset.js': 'text/javascript',
  'favicon-32x32.png': 'image/png',
};

const page = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Device-monitoring API</title>
  <link rel="stylesheet" href="/docs/swagger-ui.css">
  <link rel="icon" href="/docs/favicon-32x32.png">
</head>
<body>
  <div id="docs"></div>
  <script src="/docs/swagger-ui-bundle.js"></script>
  <script>
    window.ui = SwaggerUIBundle({ url: '/docs/openapi.json', dom_id: '#docs', deepLinking: true });
  </script>
</body>
</html>
`;

export interface DocsServer {
  url: string;
  close: () => Promise<void>;
}

/** The status board's files (scripts/local/board.ts) and the config.json naming the running API. */
export interface BoardFiles {
  assets: Record<string, Asset>;
  config: Asset;
}

/** What the local webhook receiver keeps of one request. */
interface Received {
  path: string;
  receivedAt: string;
  headers: Record<string, string>;
  body: unknown;
}

/** The receiver keeps the latest requests only, and reads at most this much of a body. */
const KEPT = 50;
const BODY_LIMIT = 1024 * 1024;

/** The headers a receiver checks (docs/guide/notifications.md), as sent. */
const SHOWN_HEADERS = ['content-type', 'user-agent', 'x-signature-256', 'x-signature-timestamp', 'x-delivery-id'];

const receive = (req: import('node:http').IncomingMessage, kept: Received[], done: (status: number) => void) => {
  const chunks: Buffer[] = [];
  let size = 0;
  req.on('data', (chunk: Buffer) => {
    size += chunk.length;
    if (size <= BODY_LIMIT) chunks.push(chunk);
  });
  req.on('end', () => {
    if (size > BODY_LIMIT) return done(413);
    const text = Buffer.concat(chunks).toString('utf8');
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // not JSON: kept as text
    }
    const headers = Object.fromEntries(SHOWN_HEADERS.flatMap((name) => (typeof req.headers[name] === 'string' ? [[name, req.headers[name]]] : [])));
    kept.unshift({ path: (req.url ?? '').split('?')[0]!, receivedAt: new Date().toISOString(), headers, body });
    kept.length = Math.min(kept.length, KEPT);
    done(204);
  });
};

/** Serves the docs, and the status board under /board/; the document's first server is the running local API. */
export const startDocsServer = (port: number, apiUrl: string, board?: BoardFiles): Promise<DocsServer> => {
  const received: Received[] = [];
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const send = (status: number, type: string, body: string | Buffer) => {
      res.writeHead(status, { 'content-type': type, 'cache-control': 'no-cache' });
      res.end(body);
    };
    if (path === '/' || path === '/docs' || path === '/docs/') return send(200, 'text/html; charset=utf-8', page);
    if (req.method === 'POST' && /^\/hooks\/[\w.-]+$/.test(path)) {
      return receive(req, received, (status) => {
        res.writeHead(status);
        res.end();
      });
    }
    if (path === '/hooks') return send(200, 'application/json', JSON.stringify(received));
    if (board && path === '/board') {
      res.writeHead(301, { location: '/board/' });
      return res.end();
    }
    if (board && path.startsWith('/board/')) {
      const name = path.slice('/board/'.length) || 'index.html';
      const file = name === 'config.json' ? board.config : board.assets[name];
      if (file) return send(200, file.type, file.body);
    }
    if (path === '/docs/openapi.json') {
      const document = JSON.parse(readFileSync(join(root, 'docs', 'openapi.json'), 'utf8')) as { servers: { url: string }[] };
      document.servers = [{ url: apiUrl }, ...document.servers.slice(1)];
      return send(200, 'application/json', JSON.stringify(document));
    }
    const asset = path.replace(/^\/docs\//, '');
    const type = assets[asset];
    if (type) return send(200, type, readFileSync(join(assetsDir, asset)));
    return send(404, 'application/json', JSON.stringify({ message: 'Not found' }));
  });
  return new Promise((ready, fail) => {
    server.once('error', fail);
    server.listen(port, '127.0.0.1', () =>
      ready({ url: `http://localhost:${port}/docs`, close: () => new Promise((done) => server.close(() => done())) }),
    );
  });
};
