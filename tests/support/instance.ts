/** What the e2e files that start their own `npm start` instance share. */
import { startInstance, type Instance } from '../../scripts/local/instance';

/** An instance built in its own folder (`workFolder`); E2E_SERVER_LOGS=1 shows the server's output. */
export const ownInstance = (workFolder: string, env: Record<string, string>): Promise<Instance> =>
  startInstance({ workFolder, echo: process.env.E2E_SERVER_LOGS === '1', env });

/** Calls the instance `at()` answers with the API key `key`: JSON in, the status and the parsed body (if any) out. */
export const keyCaller =
  (at: () => Instance, key: string) =>
  async <T>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> => {
    const response = await fetch(`${at().url}${path}`, {
      method,
      headers: { 'x-api-key': key, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: (text ? JSON.parse(text) : undefined) as T };
  };
