/**
 * A local Webex device API (shared/vendors.md): `/v1/devices` and `/v1/locations` paged by the
 * `Link` header (`rel="next"`, an absolute URL carrying only `max` and `start`), `/v1/workspaces`
 * paged by offset with no `Link`, one device / workspace / location by id, the devices filters
 * `serial` and `connectionStatus` (a status poll's; its next link keeps it), xAPI status of one device, bearer tokens that expire and a refresh-token grant at
 * `/v1/access_token`, a `Trackingid` on every answer, and the faults of ./server.ts. Its fleet
 * adds, to the devices it is given, two personal-mode devices (no workspace) and one without a
 * serial number, as real organisations have (`extras: false` leaves them out).
 */
import { randomUUID } from 'node:crypto';
import type { ProviderDevice } from '../../../lib/devices/types';
import { countryOf, hashOf, idOf, snapshots } from './fleet';
import { bearer, deviceOverrides, json, startFake, type FakeServer, type Reply, type VendorFake, type VendorFakeOptions, vendorFake } from './server';

export interface WebexFakeOptions extends VendorFakeOptions {
  /** An access token accepted as is (a personal or bot token); expires with `expireTokens()`. */
  accessToken?: string;
  /** The refresh-token grant: a new access token for these. */
  clientId?: string;
  clientSecret?: string;
  refreshToken?: string;
}

export type WebexFake = VendorFake;

const MAX_PAGE = 1000;
const org = 'fake-org';

interface Org {
  devices: Record<string, unknown>[];
  workspaces: Record<string, unknown>[];
  locations: Record<string, unknown>[];
  calls: Map<string, number>;
}

const build = (devices: readonly ProviderDevice[], extras: boolean): Org => {
  const locations = new Map<string, Record<string, unknown>>();
  const workspaces = new Map<string, Record<string, unknown>>();
  const records: Record<string, unknown>[] = [];
  const calls = new Map<string, number>();
  for (const device of devices) {
    const { location, room } = device.details;
    const locationId = idOf('loc-', device.details.region, location);
    const { countryCode } = countryOf(location);
    if (!locations.has(locationId)) {
      locations.set(locationId, { id: locationId, orgId: org, displayName: location, countryCode, cityName: location, address: { city: location, country: countryCode } });
    }
    const workspaceId = idOf('ws-', device.details.region, location, room);
    if (!workspaces.has(workspaceId)) {
      workspaces.set(workspaceId, { id: workspaceId, orgId: org, displayName: room, locationId, type: 'meetingRoom', capacity: 8, health: { level: 'ok', issues: [] } });
    }
    const h = hashOf(device.devicesn);
    const connectionStatus = device.status.connected ? (h % 10 === 0 ? 'connected_with_issues' : 'connected') : h % 3 === 0 ? 'offline_expired' : 'disconnected';
    records.push({
      id: device.deviceid,
      displayName: `${room} ${device.devicemodel}`,
      workspaceId,
      placeId: workspaceId,
      orgId: org,
      locationId,
      capabilities: ['xapi'],
      permissions: ['xapi'],
      connectionStatus,
      product: device.devicemodel,
      type: 'roomdesk',
      tags: [],
      ip: `10.${h % 250}.${(h >> 8) % 250}.${(h >> 16) % 250}`,
      activeInterface: 'wired',
      mac: (h.toString(16).padStart(12, '0').match(/../g) ?? []).join(':'),
      serial: device.devicesn,
      software: h % 4 === 0 ? 'RoomOS 11.14.2.3 5a2b7c1b1f2' : 'RoomOS 11.17.1.4 8c1d0a9e3b7',
      upgradeChannel: 'Stable',
      created: '2024-01-15T09:00:00.000Z',
      firstSeen: '2024-01-15T09:00:00.000Z',
      lastSeen: device.status.connected ? new Date().toISOString() : new Date(Date.UTC(2026, 4, 1) + (h % 100_000) * 60_000).toISOString(),
      errorCodes: connectionStatus === 'connected_with_issues' ? ['sipprofileregistration'] : [],
      managedBy: 'CISCO',
      devicePlatform: 'cisco',
      // the reference documents an object, its example a bare string: both occur here
      plannedMaintenance: h % 25 === 0 ? 'upcoming' : { mode: 'off' },
    });
    calls.set(device.deviceid, device.status.inCallStatus === 'ACTIVE' ? 1 : 0);
  }
  if (extras) {
    for (const n of [1, 2]) {
      records.push({ id: `personal-${n}`, displayName: `Desk Pro of person ${n}`, personId: `person-${n}`, orgId: org, connectionStatus: 'connected', product: 'Cisco Desk Pro', serial: `PERSONAL${n}`, capabilities: ['xapi'] });
    }
    records.push({ id: 'no-serial-1', displayName: 'Accessory', workspaceId: [...workspaces.keys()][0], orgId: org, connectionStatus: 'connected', product: 'Cisco Room Navigator', type: 'accessory' });
  }
  return { devices: records, workspaces: [...workspaces.values()], locations: [...locations.values()], calls };
};

const intParam = (url: URL, name: string, fallback: number): number => {
  const value = Number(url.searchParams.get(name) ?? fallback);
  return Number.isInteger(value) && value >= 0 ? value : fallback;
};

export const startWebexFake = async (options: WebexFakeOptions): Promise<WebexFake> => {
  let source = options.devices;
  // fields set by hand (POST /_fake/devices/<serial>): the org is built again with them
  const overrides = deviceOverrides(() => org.reset());
  const org = snapshots(
    () => source(),
    (devices) => {
      const built = build(overrides.fleet(devices), options.extras ?? true);
      return { ...built, devices: built.devices.map((record) => overrides.record(record.serial, record)) };
    },
  );
  const ttlMs = (options.tokenTtlSeconds ?? 14 * 24 * 3600) * 1000;
  const tokens = new Map<string, number>();
  if (options.accessToken) tokens.set(options.accessToken, Date.now() + ttlMs);
  let server: FakeServer;

  /**
   * One page by offset; `link` adds the RFC 8288 header whose next URL carries max and start, and
   * the `connectionStatus` filter when one was asked (the serial filter's single answer needs no next page).
   */
  const page = (path: string, url: URL, items: readonly Record<string, unknown>[], defaultMax: number, link: boolean): Reply => {
    const max = intParam(url, 'max', defaultMax);
    if (max < 1 || max > MAX_PAGE) return json(400, { message: `max must be 1..${MAX_PAGE}` });
    const start = intParam(url, 'start', 0);
    const slice = items.slice(start, start + max);
    const pageNumber = Math.floor(start / max);
    const shown = server.faults.malformedPage === pageNumber && slice[0] ? [{ ...slice[0], connectionStatus: 42 }, ...slice.slice(1)] : slice;
    const headers: Record<string, string> = {};
    if (link) {
      const status = url.searchParams.get('connectionStatus');
      const filter = status === null ? '' : `&${new URLSearchParams({ connectionStatus: status })}`;
      const links = [`<${server.url}${path}?max=${max}&start=0${filter}>; rel="first"`];
      if (start + max < items.length) links.push(`<${server.url}${path}?max=${max}&start=${start + max}${filter}>; rel="next"`);
      headers.link = links.join(', ');
    }
    return json(200, { items: shown }, headers);
  };
  const one = (items: readonly Record<string, unknown>[], id: string): Reply => {
    const found = items.find((item) => item.id === id);
    return found ? json(200, found) : json(404, { message: 'The requested resource could not be found.' });
  };

  server = await startFake({
    name: 'webex',
    trackingHeader: 'trackingid',
    faults: options.faults,
    control: (req, url, body) => overrides.control(req, url, body, (serial) => source().some((device) => device.devicesn === serial)),
    port: options.port,
    isToken: (path) => path === '/v1/access_token',
    handle: (req, url, body) => {
      const path = url.pathname;
      if (path === '/v1/access_token' && req.method === 'POST') {
        const form = new URLSearchParams(body);
        const known =
          form.get('grant_type') === 'refresh_token' &&
          options.refreshToken !== undefined &&
          form.get('refresh_token') === options.refreshToken &&
          form.get('client_id') === options.clientId &&
          form.get('client_secret') === options.clientSecret;
        if (!known) return json(400, { message: 'Invalid refresh token or client credentials' });
        const token = `fake-webex-${randomUUID()}`;
        tokens.set(token, Date.now() + ttlMs);
        return json(200, { access_token: token, expires_in: ttlMs / 1000, refresh_token: options.refreshToken, refresh_token_expires_in: 7_776_000 });
      }
      const token = bearer(req);
      const expiresAt = token === undefined ? undefined : tokens.get(token);
      if (expiresAt === undefined || expiresAt <= Date.now()) return json(401, { message: 'The request requires a valid access token set in the Authorization request header.' });
      const { devices, workspaces, locations, calls } = org.get();
      if (path === '/v1/devices') {
        // the filters the provider uses: one serial number (a refresh), one connection status (a status poll)
        const serial = url.searchParams.get('serial');
        const status = url.searchParams.get('connectionStatus');
        const wanted = devices.filter((d) => (serial === null || d.serial === serial) && (status === null || d.connectionStatus === status));
        return page(path, url, wanted, 100, true);
      }
      if (path === '/v1/workspaces') return page(path, url, workspaces, 100, false);
      if (path === '/v1/locations') return page(path, url, locations, 500, true);
      if (path === '/v1/xapi/status') {
        const deviceId = url.searchParams.get('deviceId') ?? '';
        const calls_ = calls.get(deviceId);
        if (calls_ === undefined) return json(404, { message: 'Device not found' });
        return json(200, { deviceId, result: { SystemUnit: { State: { NumberOfActiveCalls: calls_ } } } });
      }
      const [, , kind, id] = path.split('/');
      if (id && kind === 'devices') return one(devices, decodeURIComponent(id));
      if (id && kind === 'workspaces') return one(workspaces, decodeURIComponent(id));
      if (id && kind === 'locations') return one(locations, decodeURIComponent(id));
      return json(404, { message: 'The requested resource could not be found.' });
    },
  });
  return vendorFake(server, tokens, (devices) => {
    source = devices;
    org.reset();
  });
};
