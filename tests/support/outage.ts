import { createServer, type Server } from 'node:net';
import { dynamo } from '#lib/store/client';

const listen = (server: Server) => new Promise<number>((ready) => server.listen(0, '127.0.0.1', () => ready((server.address() as { port: number }).port)));
const close = (server: Server) => new Promise<void>((closed) => server.close(() => closed()));

/**
 * A real store outage for the shared DynamoDB client: every request goes to a local port that
 * refuses connections (`refused`) or accepts and drops them at once (`reset`), so the SDK meets
 * the network errors of a store that is down, with its own retries. Returns the cure.
 */
export const storeOutage = async (kind: 'refused' | 'reset'): Promise<() => Promise<void>> => {
  const server = createServer((socket) => socket.destroy());
  const port = await listen(server);
  if (kind === 'refused') await close(server);
  const restore = redirectStore(port);
  return async () => {
    restore();
    if (kind === 'reset') await close(server);
  };
};

/**
 * Sends every request of the shared DynamoDB client to a local port instead of the store;
 * `original` hears where each one was going. Returns what undoes it.
 */
export const redirectStore = (port: number, original: (target: { hostname: string; port: number }) => void = () => undefined): (() => void) => {
  const name = `redirect-store-${port}`;
  dynamo.middlewareStack.add(
    (next) => async (args) => {
      const request = args.request as { hostname: string; port?: number };
      if (request.port !== port) original({ hostname: request.hostname, port: request.port ?? 80 });
      request.hostname = '127.0.0.1';
      request.port = port;
      return next(args);
    },
    { step: 'finalizeRequest', name },
  );
  return () => dynamo.middlewareStack.remove(name);
};
