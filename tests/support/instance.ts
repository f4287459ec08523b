/** What the e2e files that start their own `npm start` instance share. */
import { afterAll, beforeAll } from 'vitest';
import { startInstance, type Instance } from '../../scripts/local/instance';

/** An instance built in its own folder (`workFolder`); E2E_SERVER_LOGS=1 shows the server's output. */
export const ownInstance = (workFolder: string, env: Record<string, string>): Promise<Instance> =>
  startInstance({ workFolder, echo: process.env.E2E_SERVER_LOGS === '1', env });

/**
 * The file's own instance on what it needs started first (a store, vendor fakes…): `needs()`
 * then the instance on the env `env` makes of it, before the file's tests (within `timeoutMs`);
 * after them the instance stops, then `needs` closes.
 */
export const instanceOn = <N extends { close(): Promise<void> }>(workFolder: string, needs: () => Promise<N>, env: (needs: N) => Record<string, string>, timeoutMs: number) => {
  const held: { needs?: N; instance?: Instance } = {};
  beforeAll(async () => {
    held.needs = await needs();
    held.instance = await ownInstance(workFolder, env(held.needs));
  }, timeoutMs);
  afterAll(async () => {
    await held.instance?.stop();
    await held.needs?.close();
  });
  return {
    get needs(): N {
      return held.needs!;
    },
    get instance(): Instance {
      return held.instance!;
    },
  };
};
