import { createServer, request as httpRequest, type Server } from 'node:http';
import { redirectStore } from './outage';

const listen = (server: Server) => new Promise<number>((ready) => server.listen(0, '127.0.0.1', () => ready((server.address() as { port: number }).port)));

/**
 * A store that answers slowly, as one under load does: every request of the shared DynamoDB
 * client goes through a local proxy that holds it `delayMs` before passing it on to the real
 * store (so writes still land, late), and passes the answer back. A request the client gives up
 * on meanwhile may still reach the store, as with a real one. Returns the cure.
 */
export const slowStore = async (delayMs: number): Promise<() => Promise<void>> => {
  let target: { hostname: string; port: number } | undefined;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () =>
      setTimeout(() => {
        const upstream = httpRequest({ ...target, method: req.method, path: req.url, headers: req.headers }, (answer) => {
          res.writeHead(answer.statusCode ?? 500, answer.headers);
          answer.pipe(res);
        });
        upstream.on('error', () => res.destroy());
        upstream.end(Buffer.concat(chunks));
      }, delayMs),
    );
  });
  const port = await listen(server);
  const restore = redirectStore(port, (original) => (target ??= original));
  return async () => {
    restore();
    server.closeAllConnections();
    await new Promise<void>((closed) => server.close(() => closed()));
  };
};
