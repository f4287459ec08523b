import { createServer, type IncomingMessage, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpProvider, ProviderError } from '#lib/inventory/provider/http';
import { providerFromEnv } from '#lib/inventory/provider/index';
import { simulatedFleet } from '#lib/inventory/provider/simulated';

// A real vendor API stand-in on a loopback port: paginated listing, one device, bearer token.
const TOKEN = 'vendor-secret-token';
const fleet = simulatedFleet({ seed: 5, devices: 25 });
const requests: IncomingMessage[] = [];
let server: Server;
let baseUrl = '';

beforeAll(async () => {
  server = createServer((req, res) => {
    requests.push(req);
    const url = new URL(req.url ?? '/', 'http://x');
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.headers.authorization !== `Bearer ${TOKEN}`) return send(401, { message: 'no' });
    if (url.pathname === '/v1/devices') {
      const start = Number(url.searchParams.get('cursor') ?? 0);
      const next = start + 10;
      return send(200, { devices: fleet.slice(start, next), nextCursor: next < fleet.length ? String(next) : undefined });
    }
    if (url.pathname === '/v1/devices/broken') return send(200, { devicesn: 'broken' });
    const sn = decodeURIComponent(url.pathname.replace('/v1/devices/', ''));
    const device = fleet.find((d) => d.devicesn === sn);
    return device ? send(200, device) : send(404, { message: 'unknown' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/v1/`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('HTTP device provider', () => {
  it('reads its token from the secret lookup it is given, at its first request (SSM in AWS, issue 23)', async () => {
    const asked: string[] = [];
    const provider = providerFromEnv({ DEVICE_PROVIDER: 'http', DEVICE_PROVIDER_URL: baseUrl, DEVICE_PROVIDER_TOKEN: 'not-this-one' }, async (name) => {
      asked.push(name);
      return TOKEN;
    });
    expect(asked).toEqual([]);
    expect((await provider.getDevice(fleet[0]!.devicesn))?.devicesn).toBe(fleet[0]!.devicesn);
    expect(asked).toEqual(['DEVICE_PROVIDER_TOKEN']);
  });

  it('fails as a provider error, naming no secret, when its token cannot be read', async () => {
    const provider = httpProvider({ baseUrl, token: () => Promise.reject(new Error(`AccessDenied ${TOKEN}`)) });
    const failure = (await provider.listDevices().catch((error: unknown) => error)) as Error;
    expect(failure).toBeInstanceOf(ProviderError);
    expect(failure.message).not.toContain(TOKEN);
  });

  it('lists every device across pages with the bearer token', async () => {
    const devices = await httpProvider({ baseUrl, token: TOKEN }).listDevices();
    expect(devices).toEqual(fleet);
    expect(requests.at(-1)?.headers.authorization).toBe(`Bearer ${TOKEN}`);
  });

  it('answers one device, and undefined for a 404', async () => {
    const provider = httpProvider({ baseUrl, token: TOKEN });
    expect(await provider.getDevice(fleet[3]!.devicesn)).toEqual(fleet[3]);
    expect(await provider.getDevice('nope')).toBeUndefined();
  });

  it('fails on a refused token without repeating the token', async () => {
    const failure = httpProvider({ baseUrl, token: 'wrong' }).listDevices();
    await expect(failure).rejects.toThrow('device provider answered 401');
    await expect(failure).rejects.not.toThrow(/wrong/);
  });

  it('refuses a device record without the expected fields', async () => {
    await expect(httpProvider({ baseUrl, token: TOKEN }).getDevice('broken')).rejects.toThrow('without the expected fields');
  });

  it('fails clearly when the vendor is unreachable', async () => {
    await expect(httpProvider({ baseUrl: 'http://127.0.0.1:1', token: TOKEN }).listDevices()).rejects.toThrow('unreachable');
  });
});
