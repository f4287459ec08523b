import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { fullPass } from '#lib/alarms/engine/fullPass';
import { DeliveryEntity } from '#lib/notify/entities';
import { doc, tableName } from '#lib/store/client';
import { outboxMailer } from '#lib/adapters/mail';
import { syncDevices } from '#lib/inventory/sync';
import { createChannel, replaceChannel } from '#lib/notify/channels';
import * as channelStore from '#lib/notify/repository/channels';
import { HttpError } from '#lib/shared/errors';
import * as deliveries from '#lib/notify/repository/deliveries';
import * as watchers from '#lib/watchers/repository';
import { device, fixed, offlineWatcher, unique } from '../support/fleet';
import { handler as createChannelRoute } from '../../functions/channels/create';
import { jsonEvent, lambdaContext } from '../support/events';

/*
 * A hostile (or broken) ServiceNow instance: a loopback server of ours answering what a proxy, a
 * login page or a misconfigured instance answers. Deliveries fail or retry cleanly, say why in
 * the delivery log, never open a second incident, and never put the password in the log.
 */
const PASSWORD = 'hunter2-attack-password';
type Answer = (req: IncomingMessage, res: ServerResponse, body: string) => void;
let answer: Answer = (_req, res) => res.end();
const requests: { method: string; url: string; body: string }[] = [];
let server: Server;
let url = '';

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      requests.push({ method: req.method ?? '', url: req.url ?? '', body });
      answer(req, res, body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  vi.stubEnv('ALLOW_LOCAL_WEBHOOKS', 'true');
  vi.stubEnv('NOTIFY_RETRY_BASE_SECONDS', '0.001');
  requests.length = 0;
});
afterEach(() => vi.unstubAllEnvs());

const run = () => fullPass({ mailer: outboxMailer(), deadline: Date.now() + 20_000 });
const json = (res: ServerResponse, status: number, value: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(value));
};

/** One offline device watched by a watcher that tells only a ServiceNow channel on the hostile server. */
const watched = async () => {
  const region = unique('SNX');
  await syncDevices(fixed(() => [device(region, `${region}-1`, 'Room 1', false)]));
  const channel = await createChannel({ name: 'itsm', type: 'servicenow', instanceUrl: url, username: 'integration', password: PASSWORD });
  await watchers.create(offlineWatcher(region, `${unique('ops')}@example.com`, { sendEmail: false, emails: [], channelIds: [channel.id], severity: 1 }));
  return channel;
};
/** A delivery's stored item, with what the log's view leaves out (its last error). */
const storedItem = async (id: string) => (await doc.send(new GetCommand({ TableName: tableName(), Key: DeliveryEntity.key(id) }))).Item;
const creates = () => requests.filter((r) => r.method === 'POST' && r.url.startsWith('/api/now/table/incident'));

describe('a ServiceNow instance answering garbage', () => {
  it.each<[string, Answer]>([
    ['an HTML login page (200)', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html><body>Log in</body></html>');
    }],
    ['JSON without `result` (200)', (_req, res) => json(res, 200, { status: 'ok' })],
    ['a body over 256 KiB (200)', (_req, res) => json(res, 200, { result: [], padding: 'x'.repeat(300 * 1024) })],
  ])('a lookup answered with %s opens no incident: the delivery retries, its log saying why', async (_label, hostile) => {
    // the lookups get the garbage; a create would succeed (so each wrongly taken "none found" opens one)
    answer = (req, res) => (req.method === 'GET' ? hostile(req, res, '') : json(res, 201, { result: { sys_id: unique('sys'), number: 'INC1' } }));
    const channel = await watched();
    await run();
    await run();
    expect(creates()).toHaveLength(0);
    const log = (await deliveries.log(channel.id, 10)).items;
    expect(log.length).toBeGreaterThan(0);
    expect(log.every((d) => d.status === 'retrying' || d.status === 'failed')).toBe(true);
    const stored = await Promise.all(log.map((d) => storedItem(d.deliveryId)));
    expect(stored.map((item) => item?.lastError)).toEqual(log.map(() => expect.stringMatching(/incident lookup without a JSON `result` list/)));
    expect(JSON.stringify(stored)).not.toContain(PASSWORD);
  });

  it('a lookup answering two incidents for one correlation id updates the first and opens none', async () => {
    answer = (req, res) =>
      req.method === 'GET' ? json(res, 200, { result: [{ sys_id: 'first', state: '1' }, { sys_id: 'second', state: '1' }] }) : json(res, 200, { result: { sys_id: 'first' } });
    const channel = await watched();
    await run();
    expect(creates()).toHaveLength(0);
    expect((await deliveries.log(channel.id, 10)).items.map((d) => d.status)).toContain('delivered');
  });

  it('a redirect to another host is not followed: the delivery fails or retries, nothing is sent there', async () => {
    answer = (_req, res) => {
      res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' });
      res.end();
    };
    const channel = await watched();
    await run();
    expect(requests.every((r) => r.method === 'GET')).toBe(true);
    const log = (await deliveries.log(channel.id, 10)).items;
    expect(log.length).toBeGreaterThan(0);
    expect(log.every((d) => d.status !== 'delivered')).toBe(true);
  });
});

describe('a ServiceNow channel moved to another instance', () => {
  it('keeps its stored password for the same instance only: a PUT of the mask with another instanceUrl is 400 naming password, and nothing changes', async () => {
    const channel = await createChannel({ name: 'itsm', type: 'servicenow', instanceUrl: 'http://127.0.0.1:9', username: 'integration', password: PASSWORD });
    // the hostile server stands for "someone else's host": the mask would send it the stored password
    const moved = await replaceChannel(channel.id, { name: 'itsm', type: 'servicenow', instanceUrl: url, username: 'integration', password: '********' }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(moved).toBeInstanceOf(HttpError);
    // no status of its own: the handler's 400 for invalid input
    expect(moved).toMatchObject({ details: [{ field: 'body.password' }] });
    expect(await channelStore.find(channel.id)).toMatchObject({ instanceUrl: 'http://127.0.0.1:9' });
    expect(await channelStore.secretOf(channel.id)).toBe(PASSWORD);
    // the same instance (also written another way) keeps it; a new password moves it
    await replaceChannel(channel.id, { name: 'renamed', type: 'servicenow', instanceUrl: 'http://127.0.0.1:9/', username: 'integration', password: '********' });
    expect(await channelStore.secretOf(channel.id)).toBe(PASSWORD);
    await replaceChannel(channel.id, { name: 'itsm', type: 'servicenow', instanceUrl: url, username: 'integration', password: 'another-password' });
    expect(await channelStore.find(channel.id)).toMatchObject({ instanceUrl: url });
  });
});

describe('POST /channels of type servicenow with hostile account names', () => {
  it.each([
    ['username', 'a:b', { password: 'p' }],
    ['username', 'ops\r\nX-Injected: 1', { password: 'p' }],
    ['username', 'ops\u0000', { password: 'p' }],
    ['username', '\u202Eadmin', { password: 'p' }],
    ['clientId', 'client\r\nid', { clientSecret: 's' }],
  ])('%s %j is 400 naming the field, nothing stored', async (field, value, rest) => {
    const res = await createChannelRoute(jsonEvent({ name: 'itsm', type: 'servicenow', instanceUrl: url, [field]: value, ...rest }), lambdaContext());
    expect(res.statusCode).toBe(400);
    expect(JSON.parse(res.body ?? '{}')).toMatchObject({ errors: [{ field: `body.${field}` }] });
  });
});

describe('a ServiceNow token endpoint answering a hostile token', () => {
  it('a token that is no bearer token (CRLF in it) is not kept: the retry asks again and delivers', async () => {
    let tokenRequests = 0;
    answer = (req, res) => {
      if (req.url === '/oauth_token.do') {
        tokenRequests += 1;
        // the first answer's token could never be sent (a header holds no line break), and claims to last for ever
        return json(res, 200, tokenRequests === 1 ? { access_token: 'bad\r\nX-Injected: 1', expires_in: 1e12 } : { access_token: 'good-token', expires_in: 1800 });
      }
      if (req.headers.authorization !== 'Bearer good-token') return json(res, 401, { error: 'unauthorized' });
      return req.method === 'GET' ? json(res, 200, { result: [] }) : json(res, 201, { result: { sys_id: unique('sys') } });
    };
    const region = unique('SNT');
    await syncDevices(fixed(() => [device(region, `${region}-1`, 'Room 1', false)]));
    const channel = await createChannel({ name: 'itsm', type: 'servicenow', instanceUrl: url, clientId: unique('client'), clientSecret: PASSWORD });
    await watchers.create(offlineWatcher(region, `${unique('ops')}@example.com`, { sendEmail: false, emails: [], channelIds: [channel.id], severity: 1 }));
    await run();
    await run();
    await run();
    expect((await deliveries.log(channel.id, 10)).items.map((d) => d.status)).toEqual(['delivered']);
    expect(creates()).toHaveLength(1);
  });
});
