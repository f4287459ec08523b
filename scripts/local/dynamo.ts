import dynalite from 'dynalite';
import { freePort } from './ports';

export interface LocalStore {
  endpoint: string;
  close: () => Promise<void>;
}

/**
 * The embedded DynamoDB-compatible store (dynalite) on a loopback port. With `path` it
 * persists to disk (LevelDB), otherwise it lives in memory for the life of the process.
 */
export const startLocalStore = async (options: { path?: string; port?: number } = {}): Promise<LocalStore> => {
  const port = options.port ?? (await freePort());
  const server = dynalite({ path: options.path, createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
  // Node closes idle keep-alive sockets after 5 s; a client that reuses one at that moment
  // can wait on it forever. Let clients (the SDK's agent) be the side that closes them.
  server.keepAliveTimeout = 120_000;
  server.headersTimeout = 121_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  return {
    endpoint: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
};
