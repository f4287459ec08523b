import { createHmac, randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simulatedFleet } from '#lib/inventory/provider/simulated';
import { api } from '../support/api';
import { offlineWatcher } from '../support/fleet';

// A webhook receiver on loopback (the e2e server runs with ALLOW_LOCAL_WEBHOOKS=true, like
// npm start). `/ok` answers 204, `/flaky` 500 on its first request and 200 after, `/bad` 400.
interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  raw: string;
}
const received: Received[] = [];
let server: Server;
let base: string;
const seen = new Map<string, number>();
const answer = (path: string): number => {
  const count = (seen.get(path) ?? 0) + 1;
  seen.set(path, count);
  if (path.startsWith('/flaky')) return count === 1 ? 500 : 200;
  if (path.startsWith('/bad')) return 400;
  return 204;
};

const fleet = simulatedFleet({ seed: 42, devices: 240 });
const region = 'EMEA';
const offlineInRegion = fleet.filter((d) => !d.status.connected && d.details.region === region);
const tag = randomUUID().slice(0, 8);
const ownEmail = `own-${tag}@example.com`;
const teamEmail = `team-${tag}@example.com`;

interface Channel {
  id: string;
  name: string;
  type: string;
  url?: string;
  format?: string;
  emails?: string[];
  secret?: string;
}
interface DeliveryView {
  deliveryId: string;
  type: string;
  at: string;
  attempts: number;
  status: string;
  lastResponseStatus?: number;
  nextAttemptAt?: string;
}
type ErrorBody = { message: string; errors?: { field: string; message: string }[] };
const fieldsOf = (body: unknown) => ((body as ErrorBody).errors ?? []).map((e) => e.field);
/** What a receiver checks (docs/guide/notifications.md): the signature over `<x-signature-timestamp>.<raw body>`. */
const hmac = (secret: string, request: { raw: string; headers: Record<string, string | string[] | undefined> }) =>
  `sha256=${createHmac('sha256', secret).update(`${String(request.headers['x-signature-timestamp'])}.${request.raw}`).digest('hex')}`;
const createChannel = async (body: Record<string, unknown>) => {
  const res = await api<Channel>('POST', '/channels', { body });
  expect(res.status).toBe(201);
  return res.body;
};
const webhook = (path: string, format?: string) => createChannel({ name: `hook ${path}`, type: 'webhook', url: `${base}${path}-${tag}`, ...(format ? { format } : {}) });
const evaluate = async () => expect((await api('POST', '/alarms/evaluate')).status).toBe(200);
const mailsTo = async (to: string) => (await api<{ subject: string; text: string; html?: string }[]>('GET', `/alarms/outbox?to=${encodeURIComponent(to)}`)).body;
const log = async (channelId: string, query = '') => api<{ items: DeliveryView[]; nextCursor: string | null }>('GET', `/channels/${channelId}/deliveries${query}`);
const watcherBody = (channelIds: string[]) =>
  offlineWatcher(region, ownEmail, { dashboard: 'notify-e2e', service: 'video', type: 'offline', description: 'EMEA device offline', channelIds });

beforeAll(async () => {
  server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const path = request.url ?? '/';
      received.push({ path, headers: request.headers, raw: Buffer.concat(chunks).toString('utf8') });
      response.writeHead(answer(path.replace(`-${tag}`, ''))).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

describe('a watcher that raises many alarms in one run', () => {
  let hook: Channel;
  let team: Channel;
  let watcherId: string;

  beforeAll(async () => {
    hook = await webhook('/ok');
    team = await createChannel({ name: 'team', type: 'email', emails: [teamEmail] });
    const res = await api<string>('POST', '/watcher', { body: watcherBody([hook.id, team.id]) });
    expect(res.status).toBe(200);
    watcherId = res.body;
    await evaluate();
  });

  afterAll(async () => {
    await api('DELETE', `/watcher/${watcherId}`);
    await evaluate();
  });

  it('posts one signed digest listing every alarm, with x-delivery-id equal to the body deliveryId', () => {
    const mine = received.filter((r) => r.path === `/ok-${tag}`);
    expect(mine).toHaveLength(1);
    const [request] = mine;
    expect(request!.headers['content-type']).toBe('application/json');
    expect(request!.headers['x-signature-256']).toBe(hmac(hook.secret!, request!));
    expect(Math.abs(Number(request!.headers['x-signature-timestamp']) - Date.now() / 1000)).toBeLessThan(600);
    const body = JSON.parse(request!.raw);
    expect(request!.headers['x-delivery-id']).toBe(body.deliveryId);
    expect(body).toMatchObject({ type: 'alarms.raised', watcher: { id: watcherId, description: 'EMEA device offline', severity: 2 }, totalAlarms: offlineInRegion.length });
    expect(body.alarms.map((a: { devicesn: string }) => a.devicesn).sort()).toEqual(offlineInRegion.map((d) => d.devicesn).sort());
  });

  it('mails one digest to the watcher and one to the e-mail channel, text and HTML', async () => {
    for (const to of [ownEmail, teamEmail]) {
      const mails = await mailsTo(to);
      expect(mails).toHaveLength(1);
      expect(mails[0]!.subject).toMatch(new RegExp(`^\\[Major\\] ${offlineInRegion.length} devices offline in EMEA \\(\\d+ rooms\\)$`));
      expect(mails[0]!.html).toContain(offlineInRegion[0]!.devicesn);
    }
  });

  it('logs the delivery on each channel', async () => {
    for (const channel of [hook, team]) {
      const res = await log(channel.id);
      expect(res.status).toBe(200);
      expect(res.body.items).toEqual([
        expect.objectContaining({ type: 'alarms.raised', attempts: 1, status: 'delivered', ...(channel === hook ? { lastResponseStatus: 204 } : {}) }),
      ]);
    }
  });

  it('sends nothing more when evaluated again', async () => {
    const before = received.length;
    await evaluate();
    expect(received.length).toBe(before);
    expect(await mailsTo(ownEmail)).toHaveLength(1);
  });

  it('refuses to delete a channel a watcher uses (409)', async () => {
    expect((await api('DELETE', `/channels/${hook.id}`)).status).toBe(409);
  });
});

describe('webhook delivery outcomes', () => {
  it('retries after a 500 with the same x-delivery-id, then logs it delivered', async () => {
    const flaky = await webhook('/flaky');
    const first = await api<DeliveryView>('POST', `/channels/${flaky.id}/test`);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ type: 'test', status: 'retrying', attempts: 1, lastResponseStatus: 500, nextAttemptAt: expect.any(String) });

    // the e2e server's first retry delay is 0.5..1 s (NOTIFY_RETRY_BASE_SECONDS=1)
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await evaluate();

    const attempts = received.filter((r) => r.path === `/flaky-${tag}`);
    expect(attempts).toHaveLength(2);
    expect(new Set(attempts.map((r) => r.headers['x-delivery-id']))).toEqual(new Set([first.body.deliveryId]));
    expect(attempts.every((r) => r.headers['x-signature-256'] === hmac(flaky.secret!, r))).toBe(true);
    expect((await log(flaky.id)).body.items).toEqual([
      expect.objectContaining({ deliveryId: first.body.deliveryId, status: 'delivered', attempts: 2, lastResponseStatus: 200 }),
    ]);
  });

  it('fails at once after a 400, and does not retry', async () => {
    const bad = await webhook('/bad');
    const res = await api<DeliveryView>('POST', `/channels/${bad.id}/test`);
    expect(res.body).toMatchObject({ type: 'test', status: 'failed', attempts: 1, lastResponseStatus: 400 });
    expect(res.body).not.toHaveProperty('nextAttemptAt');
    await evaluate();
    expect(received.filter((r) => r.path === `/bad-${tag}`)).toHaveLength(1);
  });

  it('sends slack and teams shapes, signed the same way', async () => {
    for (const format of ['slack', 'teams']) {
      const channel = await webhook(`/ok-${format}`, format);
      expect((await api<DeliveryView>('POST', `/channels/${channel.id}/test`)).body).toMatchObject({ status: 'delivered' });
      const request = received.find((r) => r.path === `/ok-${format}-${tag}`)!;
      expect(request.headers['x-signature-256']).toBe(hmac(channel.secret!, request));
      const body = JSON.parse(request.raw);
      if (format === 'slack') expect(body).toMatchObject({ text: expect.any(String), blocks: expect.any(Array) });
      else expect(body).toMatchObject({ type: 'message', attachments: [{ contentType: 'application/vnd.microsoft.card.adaptive' }] });
    }
  });
});

describe('/channels', () => {
  it('answers a webhook secret only on create and rotate-secret', async () => {
    const made = await webhook('/ok-secret');
    expect(made).toMatchObject({ type: 'webhook', format: 'json', secret: expect.stringMatching(/^whsec_/) });
    const got = await api<Channel>('GET', `/channels/${made.id}`);
    expect(got.status).toBe(200);
    expect(got.body).not.toHaveProperty('secret');
    expect((await api<Channel[]>('GET', '/channels')).body.find((c) => c.id === made.id)).toEqual(got.body);
    const rotated = await api<Channel>('POST', `/channels/${made.id}/rotate-secret`);
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(rotated.body.secret).not.toBe(made.secret);
  });

  it('answers a webhook URL whole only on create and rotate-secret, masked elsewhere; the masked URL PUT back keeps it', async () => {
    const made = await webhook('/ok-mask/T000/B000/XXXXSECRETXXXX');
    const whole = `${base}/ok-mask/T000/B000/XXXXSECRETXXXX-${tag}`;
    const masked = `http://${new URL(base).host}/***`;
    expect(made.url).toBe(whole);
    expect((await api<Channel>('GET', `/channels/${made.id}`)).body.url).toBe(masked);
    const listed = (await api<Channel[]>('GET', '/channels')).body;
    expect(listed.find((c) => c.id === made.id)?.url).toBe(masked);
    expect(listed.map((c) => c.url ?? '').join(' ')).not.toContain('SECRET');
    const put = await api<Channel>('PUT', `/channels/${made.id}`, { body: { name: 'renamed', type: 'webhook', url: masked, format: 'slack' } });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ name: 'renamed', format: 'slack', url: masked });
    expect((await api<Channel>('POST', `/channels/${made.id}/rotate-secret`)).body.url).toBe(whole);
    expect((await api('POST', `/channels/${made.id}/test`)).status).toBe(200);
    expect(received.some((r) => r.path === new URL(whole).pathname)).toBe(true);
  });

  it('replaces a channel with PUT, keeps its type, and deletes it', async () => {
    const made = await createChannel({ name: 'ops', type: 'email', emails: ['a@example.com'] });
    const put = await api<Channel>('PUT', `/channels/${made.id}`, { body: { name: 'ops 2', type: 'email', emails: ['b@example.com'] } });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ id: made.id, name: 'ops 2', emails: ['b@example.com'] });
    const retype = await api('PUT', `/channels/${made.id}`, { body: { name: 'x', type: 'webhook', url: `${base}/ok` } });
    expect(retype.status).toBe(400);
    expect((await api('POST', `/channels/${made.id}/rotate-secret`)).status).toBe(409);
    expect((await api('DELETE', `/channels/${made.id}`)).status).toBe(200);
    expect((await api('GET', `/channels/${made.id}`)).status).toBe(404);
  });

  it.each([
    ['a private address', { name: 'x', type: 'webhook', url: 'https://10.1.2.3/hook' }, 'body.url'],
    ['the metadata service', { name: 'x', type: 'webhook', url: 'https://169.254.169.254/latest/meta-data' }, 'body.url'],
    ['http to a public name', { name: 'x', type: 'webhook', url: 'http://example.com/hook' }, 'body.url'],
    ['a port other than 443 and 8443 (ssh)', { name: 'x', type: 'webhook', url: 'https://example.com:22/hook' }, 'body.url'],
    ['an unknown format', { name: 'x', type: 'webhook', url: 'https://example.com/hook', format: 'xml' }, 'body.format'],
    ['an e-mail channel without addresses', { name: 'x', type: 'email', emails: [] }, 'body.emails'],
    ['an unknown type', { name: 'x', type: 'sms' }, 'body.type'],
  ])('answers 400 for %s', async (_case, body, field) => {
    const res = await api<ErrorBody>('POST', '/channels', { body });
    expect(res.status).toBe(400);
    expect(fieldsOf(res.body)).toContain(field);
  });

  it('answers 404 for an unknown channel, and a watcher naming one is 400', async () => {
    const id = randomUUID();
    for (const [method, path] of [['GET', `/channels/${id}`], ['DELETE', `/channels/${id}`], ['POST', `/channels/${id}/test`], ['GET', `/channels/${id}/deliveries`]] as const) {
      expect((await api(method, path)).status).toBe(404);
    }
    const res = await api<ErrorBody>('POST', '/watcher', { body: watcherBody([id]) });
    expect(res.status).toBe(400);
    expect(fieldsOf(res.body)).toContain('body.channelIds');
  });

  it('pages the delivery log newest first', async () => {
    const channel = await webhook('/ok-log');
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await api<DeliveryView>('POST', `/channels/${channel.id}/test`)).body.deliveryId);
    const first = await log(channel.id, '?limit=2');
    expect(first.body.items.map((d) => d.deliveryId)).toEqual([ids[2], ids[1]]);
    const second = await log(channel.id, `?limit=2&cursor=${first.body.nextCursor}`);
    expect(second.body.items.map((d) => d.deliveryId)).toEqual([ids[0]]);
  });
});
