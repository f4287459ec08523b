import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifySignature } from '#lib/notify/pure/signature';

/** One notification as it arrived at the receiver. */
export interface Arrival {
  /** Arrival time (ms since the epoch). */
  at: number;
  /** Its signature held against the channel's secret, checked as docs/guide/notifications.md tells a receiver to. */
  signed: boolean;
  /** `type` of the JSON body (`alarms.raised`, ...); empty when the body is not JSON. */
  type: string;
  watcher?: { id: string; severity: number };
  alarms: { devicesn: string; severity: number }[];
}

/**
 * A webhook channel's receiver on loopback for tests and benches: every request kept with its
 * arrival time, answered 204, its signature verified by the same code that documents it
 * (`x-signature-256` over `<timestamp>.<raw body>`, timestamp within 5 minutes). `secret` is set
 * once the channel is created (its secret is shown once, in the create answer).
 */
export const startWebhookReceiver = async (path: string) => {
  const arrivals: Arrival[] = [];
  const state = { secret: '' };
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const at = Date.now();
      const raw = Buffer.concat(chunks).toString('utf8');
      const header = (name: string) => (typeof request.headers[name] === 'string' ? (request.headers[name] as string) : undefined);
      const signed = state.secret !== '' && verifySignature(state.secret, raw, { signature: header('x-signature-256'), timestamp: header('x-signature-timestamp') });
      let body: Partial<Omit<Arrival, 'at' | 'signed'>> = {};
      try {
        body = JSON.parse(raw) as typeof body;
      } catch {
        /* not JSON: kept as an arrival of no type, which no assertion matches */
      }
      arrivals.push({ at, signed, type: body.type ?? '', alarms: body.alarms ?? [], ...(body.watcher ? { watcher: body.watcher } : {}) });
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`,
    arrivals,
    state,
    /** Signed arrivals of `type` since `from` naming `serial`. */
    naming: (type: string, serial: string, from: number) => arrivals.filter((a) => a.signed && a.at >= from && a.type === type && a.alarms.some((alarm) => alarm.devicesn === serial)),
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
};

export type WebhookReceiver = Awaited<ReturnType<typeof startWebhookReceiver>>;
