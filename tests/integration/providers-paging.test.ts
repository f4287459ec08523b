import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import * as providerStatuses from '#lib/inventory/repository/providers';
import type { ProviderDevice } from '#lib/devices/types';
import { PagingBound, ProviderError, type DeviceProvider, type ListingBounds, type NamedProvider } from '#lib/inventory/provider/index';
import { webexProvider } from '#lib/inventory/provider/webex';
import { zoomProvider } from '#lib/inventory/provider/zoom';
import { providersReport } from '#lib/inventory/providerReport';
import { syncProviders } from '#lib/inventory/providers';
import { PAGING_BACKOFF_BASE_MS } from '#lib/inventory/pure/providerStatus';
import { logger } from '#lib/shared/log';
import { device, unique } from '../support/fleet';
import { quickHttp } from '../support/vendors';

/*
 * Hostile vendors, each a test-local HTTP server posing as Webex or Zoom: a `Link` to another
 * origin (which must never receive our bearer token), a `Link` loop, a `next_page_token` that
 * never ends or repeats; and the sync's backoff from a provider whose listing a paging bound stopped.
 */

type Route = (req: IncomingMessage, url: URL, res: ServerResponse) => void;
interface Vendor {
  url: string;
  requests: { path: string; authorization?: string }[];
  route: Route;
  close(): Promise<void>;
}

const started: Vendor[] = [];
const vendor = async (route: Route = (_req, _url, res) => void res.writeHead(404).end()): Promise<Vendor> => {
  const self: Vendor = { url: '', requests: [], route, close: async () => {} };
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://vendor');
    self.requests.push({ path: url.pathname, ...(req.headers.authorization ? { authorization: req.headers.authorization } : {}) });
    req.resume();
    self.route(req, url, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  self.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  self.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  started.push(self);
  return self;
};
afterAll(async () => {
  await Promise.all(started.map((v) => v.close()));
});
afterEach(() => vi.restoreAllMocks());

const json = (res: ServerResponse, body: unknown, headers: Record<string, string> = {}) =>
  void res.writeHead(200, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));

const WEBEX_TOKEN = 'webex-token-never-elsewhere';

/** Webex: one location, one workspace, and `devices` answering the device pages. */
const webexVendor = (devices: (url: URL, res: ServerResponse, self: Vendor) => void) =>
  vendor().then((self) => {
    self.route = (_req, url, res) => {
      if (url.pathname === '/v1/locations') return json(res, { items: [{ id: 'L1', displayName: 'Oslo', countryCode: 'NO' }] });
      if (url.pathname === '/v1/workspaces') return json(res, { items: [{ id: 'W1', displayName: 'Room 1', locationId: 'L1' }] });
      if (url.pathname === '/v1/devices') return devices(url, res, self);
      res.writeHead(404).end();
    };
    return self;
  });
const webexRecord = (n: number) => ({ id: `d${n}`, serial: `WX-${n}`, workspaceId: 'W1', connectionStatus: 'connected', product: 'Room Kit' });
const webexAdapter = (self: Vendor) => webexProvider({ apiUrl: `${self.url}/v1`, credentials: async () => ({ accessToken: WEBEX_TOKEN }), http: quickHttp, pageSize: 1 });
const devicePages = (self: Vendor) => self.requests.filter((r) => r.path === '/v1/devices').length;

describe('Webex Link paging', () => {
  it('follows a next link on the configured origin only: another origin ends the listing, never gets the token, and is logged without its query', async () => {
    const elsewhere = await vendor((_req, _url, res) => json(res, { items: [webexRecord(2)] }));
    const webex = await webexVendor((_url, res) => json(res, { items: [webexRecord(1)] }, { link: `<${elsewhere.url}/v1/devices?cursor=2&sig=s3cr3t-query>; rel="next"` }));
    const warned = vi.spyOn(logger, 'warn');

    const listing = webexAdapter(webex).listDevices();

    await expect(listing).rejects.toThrow(ProviderError);
    await expect(listing).rejects.toThrow(`/devices: the next page link points to another origin (${elsewhere.url}), not followed`);
    expect(elsewhere.requests).toEqual([]);
    expect(webex.requests.every((r) => r.authorization === `Bearer ${WEBEX_TOKEN}`)).toBe(true);
    const logged = JSON.stringify(warned.mock.calls);
    expect(logged).toContain('another origin');
    expect(logged).not.toMatch(/s3cr3t-query|cursor=2|webex-token/);
  });

  it('a port of its own is another origin too', async () => {
    const webex = await webexVendor((_url, res, self) => {
      const port = Number(new URL(self.url).port);
      json(res, { items: [webexRecord(1)] }, { link: `<http://127.0.0.1:${port === 65535 ? port - 1 : port + 1}/v1/devices?cursor=2>; rel="next"` });
    });
    await expect(webexAdapter(webex).listDevices()).rejects.toThrow(/another origin/);
  });

  it('ends a Link loop (page 1, 2, back to 1) at the repeated page, as a paging failure', async () => {
    const webex = await webexVendor((url, res, self) => {
      const page = url.searchParams.get('page') ?? '1';
      json(res, { items: [webexRecord(Number(page))] }, { link: `<${self.url}/v1/devices?max=1&page=${page === '1' ? '2' : '1'}>; rel="next"` });
    });
    const listing = webexAdapter(webex).listDevices();
    await expect(listing).rejects.toThrow(PagingBound);
    await expect(listing).rejects.toThrow(/\/devices repeated a page after 3 pages/);
    expect(devicePages(webex)).toBe(3);
  });

  it('ends a listing that never ends at the page budget derived from the fleet held (twice its pages, at least 200)', async () => {
    const webex = await webexVendor((url, res, self) => {
      const page = Number(url.searchParams.get('page') ?? '1');
      json(res, { items: [webexRecord(page)] }, { link: `<${self.url}/v1/devices?max=1&page=${page + 1}>; rel="next"` });
    });
    // a page of one device, 150 devices held: 300 pages
    await expect(webexAdapter(webex).listDevices(undefined, { fleet: 150 })).rejects.toThrow(/\/devices did not end within its budget of 300 pages/);
    expect(devicePages(webex)).toBe(300);
  });
});

/** Zoom: no location tree, rooms answered by `rooms`, no devices in any room. */
const zoomVendor = (rooms: (token: string, res: ServerResponse) => void) =>
  vendor().then((self) => {
    self.route = (_req, url, res) => {
      if (url.pathname === '/oauth/token') return json(res, { access_token: 'zoom-token', expires_in: 3600 });
      if (url.pathname === '/v2/rooms/locations') return json(res, { locations: [], next_page_token: '' });
      if (url.pathname === '/v2/rooms') return rooms(url.searchParams.get('next_page_token') ?? '', res);
      if (/^\/v2\/rooms\/[^/]+\/devices$/.test(url.pathname)) return json(res, { devices: [] });
      res.writeHead(404).end();
    };
    return self;
  });
const zoomAdapter = (self: Vendor) =>
  zoomProvider({ apiUrl: `${self.url}/v2`, oauthUrl: self.url, credentials: async () => ({ accountId: 'a', clientId: 'c', clientSecret: 's' }), http: quickHttp, pageSize: 30 });
const roomPages = (self: Vendor) => self.requests.filter((r) => r.path === '/v2/rooms').length;

describe('Zoom next_page_token paging', () => {
  it('ends a next_page_token that never ends at the page budget (200 with no fleet held), not 10,001 requests', async () => {
    const zoom = await zoomVendor((token, res) => {
      const n = Number(token.replace('t', '') || '0');
      json(res, { rooms: [{ id: `r${n}`, name: `Room ${n}` }], next_page_token: `t${n + 1}` });
    });
    const listing = zoomAdapter(zoom).listDevices();
    await expect(listing).rejects.toThrow(PagingBound);
    await expect(listing).rejects.toThrow(/\/rooms did not end within its budget of 200 pages/);
    expect(roomPages(zoom)).toBe(200);
  });

  it('doubles the budget for each listing in a row a bound stopped, and derives it from the fleet held', async () => {
    const zoom = await zoomVendor((token, res) => json(res, { rooms: [{ id: 'r', name: 'Room' }], next_page_token: `${token}x` }));
    await expect(zoomAdapter(zoom).listDevices(undefined, { pagingFailures: 1 })).rejects.toThrow(/budget of 400 pages/);
    // 4,500 devices held in pages of 30: 150 pages, twice that
    await expect(zoomAdapter(zoom).listDevices(undefined, { fleet: 4_500 })).rejects.toThrow(/budget of 300 pages/);
    expect(roomPages(zoom)).toBe(400 + 300);
  });

  it('ends a next_page_token answered twice at its second sight', async () => {
    const zoom = await zoomVendor((_token, res) => json(res, { rooms: [{ id: 'r', name: 'Room' }], next_page_token: 'same-token' }));
    await expect(zoomAdapter(zoom).listDevices()).rejects.toThrow(/\/rooms repeated a page after 2 pages/);
    expect(roomPages(zoom)).toBe(2);
  });
});

describe('a provider whose listing a paging bound stopped', () => {
  it('backs off between syncs, doubling, shows it in GET /providers, and is reset by a success', async () => {
    const name = unique('paging');
    const region = unique('R');
    const fleet: ProviderDevice[] = [device(region, `${region}-1`, 'Room 1', true), device(region, `${region}-2`, 'Room 1', true)];
    const asked: ListingBounds[] = [];
    let failing = true;
    const provider: DeviceProvider = {
      listDevices: async (_meter, bounds = {}) => {
        asked.push(bounds);
        if (failing) throw new PagingBound(`${name}: /devices did not end within its budget of 200 pages`);
        return fleet;
      },
      getDevice: async () => undefined,
    };
    const providers = [{ name, provider } as unknown as NamedProvider];
    const t0 = Date.parse('2026-11-28T10:00:00.000Z');
    const at = (minutes: number) => () => t0 + minutes * 60_000;
    const statusOf = async () => (await providerStatuses.all()).get(name)!;
    const reported = async (minutes: number) => (await providersReport(at(minutes)())).providers.find((p) => p.name === name)!;

    // the first failure: backed off for 5 minutes
    expect((await syncProviders(providers, { now: at(0) }))?.providers).toEqual([{ name, ok: false, devices: 0, error: expect.stringMatching(/budget of 200 pages/) }]);
    expect(await statusOf()).toMatchObject({ pagingFailures: 1, backoffUntil: new Date(t0 + PAGING_BACKOFF_BASE_MS).toISOString() });
    expect(await reported(1)).toMatchObject({ pagingFailures: 1, backoffUntil: new Date(t0 + PAGING_BACKOFF_BASE_MS).toISOString() });

    // a sync within the backoff does not ask the vendor
    const during = await syncProviders(providers, { now: at(1) });
    expect(during?.providers[0]).toMatchObject({ ok: false, error: expect.stringMatching(/^not listed: backing off until/) });
    expect(asked).toHaveLength(1);

    // after it: asked again, with a doubled budget's cue; a second failure doubles the backoff
    await syncProviders(providers, { now: at(6) });
    expect(asked).toEqual([{ fleet: 0, pagingFailures: 0 }, { fleet: 0, pagingFailures: 1 }]);
    expect(await statusOf()).toMatchObject({ pagingFailures: 2, backoffUntil: new Date(t0 + 6 * 60_000 + 2 * PAGING_BACKOFF_BASE_MS).toISOString() });
    await syncProviders(providers, { now: at(15) });
    expect(asked).toHaveLength(2);

    // a success resets both
    failing = false;
    expect((await syncProviders(providers, { now: at(17) }))?.providers[0]).toMatchObject({ ok: true, devices: 2 });
    const healed = await statusOf();
    expect(healed.pagingFailures).toBeUndefined();
    expect(healed.backoffUntil).toBeUndefined();
    expect(await reported(18)).toMatchObject({ pagingFailures: 0, backoffUntil: null, devices: 2 });
    expect(asked.at(-1)).toEqual({ fleet: 0, pagingFailures: 2 });
  });
});
