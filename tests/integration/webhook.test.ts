import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { signatureOf } from '#lib/notify/pure/signature';
import { postWebhook } from '#lib/notify/webhook';

// A receiver on loopback: /ok 204, /busy 429 with Retry-After, /down 500, /slow never answers.
const received: { url: string; headers: IncomingHttpHeaders; body: string }[] = [];
let server: Server;
let base: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      received.push({ url: req.url ?? '', headers: req.headers, body });
      if (req.url === '/slow') return;
      if (req.url === '/busy') return void res.writeHead(429, { 'retry-after': '120' }).end();
      res.writeHead(req.url === '/down' ? 500 : 204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});

const post = (url: string, overrides: Partial<Parameters<typeof postWebhook>[0]> = {}) =>
  postWebhook({ url, body: '{"type":"test"}', deliveryId: 'd-1', secret: 's3cret', timeoutMs: 2_000, allowLocal: true, ...overrides });

describe('webhook POST', () => {
  it('sends the raw body with content type, delivery id and signature, and answers the status', async () => {
    expect(await post(`${base}/ok`)).toEqual({ kind: 'answered', status: 204 });
    const request = received.find((r) => r.url === '/ok')!;
    expect(request.body).toBe('{"type":"test"}');
    const timestamp = Number(request.headers['x-signature-timestamp']);
    expect(Math.abs(timestamp - Date.now() / 1000)).toBeLessThan(5);
    expect(request.headers).toMatchObject({
      'content-type': 'application/json',
      'x-delivery-id': 'd-1',
      'x-signature-256': signatureOf('s3cret', timestamp, '{"type":"test"}'),
    });
  });

  it('refuses a URL naming a port other than 443 and 8443 (ssh) before connecting', async () => {
    expect(await post('https://example.com:22/ok')).toEqual({ kind: 'refused', reason: 'url port 22 is not allowed; webhooks use port 443 or 8443 (WEBHOOK_PORTS)' });
  });

  it('answers 5xx and 429 with Retry-After as they came', async () => {
    expect(await post(`${base}/down`)).toEqual({ kind: 'answered', status: 500 });
    expect(await post(`${base}/busy`)).toEqual({ kind: 'answered', status: 429, retryAfterSeconds: 120 });
  });

  it('gives up on a receiver that does not answer in time', async () => {
    expect(await post(`${base}/slow`, { timeoutMs: 300 })).toEqual({ kind: 'timeout' });
  });

  it('reports a closed port as unreachable', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    expect(await post(`http://127.0.0.1:${port}/x`)).toMatchObject({ kind: 'unreachable' });
  });

  it('refuses loopback without ALLOW_LOCAL_WEBHOOKS, by literal address and by a name resolving to it, before connecting', async () => {
    const before = received.length;
    expect(await post(`${base}/ok`, { allowLocal: false })).toMatchObject({ kind: 'refused' });
    const port = new URL(base).port;
    vi.stubEnv('WEBHOOK_PORTS', port); // so that the name's address, not its port, is what refuses it
    expect(await post(`https://localhost:${port}/ok`, { allowLocal: false })).toMatchObject({ kind: 'refused', reason: expect.stringContaining('loopback') });
    vi.unstubAllEnvs();
    expect(received.length).toBe(before);
  });
});
