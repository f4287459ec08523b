import { createServer, type Server } from 'node:net';
import { dynamo } from '#lib/db/client';

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
  const name = `outage-${kind}-${port}`;
  dynamo.middlewareStack.add(
    (next) => async (args) => {
      const request = args.request as { hostname?: string; port?: number };
      request.hostname = '127.0.0.1';
      request.port = port;
      return next(args);
    },
    { step: 'finalizeRequest', name },
  );
  return async () => {
    dynamo.middlewareStack.remove(name);
    if (kind === 'reset') await close(server);
  };
};
