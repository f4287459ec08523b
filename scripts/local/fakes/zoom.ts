/**
 * A local Zoom Rooms API (shared/vendors.md): Server-to-Server OAuth at `/oauth/token` (Basic
 * client id and secret, tokens that expire), `/v2/rooms` paged by `next_page_token` (a token
 * lives `pageTokenTtlSeconds`, 15 minutes by default; an expired or unknown one answers 400),
 * filters `status` and `location_id`, `/v2/rooms/{id}/devices`, and the location tree at
 * `/v2/rooms/locations` (country > city > campus > building > floor; a room points at its
 * floor). A room is `InMeeting` when one of its connected devices is in a call, `Offline` when
 * none is connected. One room also holds a scheduling display without a serial number
 * (`extras: false` leaves it out); every twentieth device lacks `device_model`.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { ProviderDevice } from '../../../lib/devices/types';
import { byRoom, countryOf, hashOf, idOf, snapshots } from './fleet';
import { bearer, ControlError, controlBody, deviceOverrides, json, startFake, type FakeServer, type Reply, type VendorFake, type VendorFakeOptions, vendorFake } from './server';
import { zoomWebhooks, type PushedDevice, type WebhookStats, type WebhookTarget } from './zoomWebhooks';

export interface ZoomFakeOptions extends VendorFakeOptions {
  accountId: string;
  clientId: string;
  clientSecret: string;
  pageTokenTtlSeconds?: number;
  /** Where its webhook events go, signed with `secret` (also set later: `setWebhook`, `POST /_fake/webhook`). */
  webhook?: WebhookTarget;
  /** Zoom's retries of an event not answered 2xx (default about 5, 20 and 60 minutes). */
  webhookRetryDelaysMs?: readonly number[];
}

export interface ZoomFake extends VendorFake {
  /** Sends the events of devices that changed to `target` from now on (undefined: to nobody). */
  setWebhook(target: WebhookTarget | undefined): void;
  webhookStats: WebhookStats;
}

/** How often the fake looks at its fleet for changes it did not make itself (the demo's churn). */
const OBSERVE_MS = 1000;

interface Account {
  rooms: Record<string, unknown>[];
  devices: Map<string, Record<string, unknown>[]>;
  locations: Record<string, unknown>[];
}

const build = (devices: readonly ProviderDevice[], extras: boolean): Account => {
  const nodes = new Map<string, Record<string, unknown>>();
  const node = (type: string, name: string, parent: string | undefined, ...path: string[]) => {
    const id = idOf('zl-', type, ...path);
    if (!nodes.has(id)) nodes.set(id, { id, name, type, ...(parent ? { parent_location_id: parent } : {}) });
    return id;
  };
  const rooms: Record<string, unknown>[] = [];
  const roomDevices = new Map<string, Record<string, unknown>[]>();
  for (const [index, members] of byRoom(devices).entries()) {
    const { region, location, room } = members[0]!.details;
    const { country } = countryOf(location);
    const countryId = node('country', country, undefined, country);
    const cityId = node('city', location, countryId, country, location);
    const campusId = node('campus', `${location} Campus`, cityId, country, location);
    const buildingId = node('building', `${location} HQ`, campusId, country, location);
    const floor = `Floor ${(hashOf(room) % 3) + 1}`;
    const floorId = node('floor', floor, buildingId, country, location, floor);
    const roomId = idOf('zr-', region, location, room);
    const anyConnected = members.some((d) => d.status.connected);
    const inMeeting = members.some((d) => d.status.connected && d.status.inCallStatus === 'ACTIVE');
    rooms.push({ id: roomId, room_id: roomId, name: room, location_id: floorId, status: inMeeting ? 'InMeeting' : anyConnected ? 'Available' : 'Offline' });
    const records: Record<string, unknown>[] = members.map((d, i) => {
      const h = hashOf(d.devicesn);
      const type = i === 0 ? 'Zoom Rooms Computer' : i === 1 ? 'Controller' : 'Companion Whiteboard';
      return {
        id: d.deviceid,
        room_name: room,
        device_type: type,
        app_version: h % 4 === 0 ? '6.1.5 (4920)' : '6.2.0 (5102)',
        app_target_version: '6.2.0 (5102)',
        device_system: 'Win 11',
        status: d.status.connected ? 'Online' : 'Offline',
        ip_address: `10.${h % 250}.${(h >> 8) % 250}.${(h >> 16) % 250}`,
        serial_number: d.devicesn,
        device_mac_addresses: [(h.toString(16).padStart(12, '0').match(/../g) ?? []).join('-')],
        device_hostname: `zr-${d.devicesn.toLowerCase()}`,
        device_manufacturer: 'Fake Systems',
        ...(h % 20 === 0 ? {} : { device_model: d.devicemodel }),
        device_firmware: '1.0.0',
      };
    });
    if (extras && index === 0) records.push({ id: 'display-no-serial', room_name: room, device_type: 'Scheduling Display', status: 'Online', app_version: '6.2.0' });
    roomDevices.set(roomId, records);
  }
  return { rooms, devices: roomDevices, locations: [...nodes.values()] };
};

export const startZoomFake = async (options: ZoomFakeOptions): Promise<ZoomFake> => {
  let source = options.devices;
  // fields set by hand (POST /_fake/devices/<serial>): the account is built again with them, and
  // a device whose state changed is pushed at once
  const overrides = deviceOverrides(() => {
    account.reset();
    observe();
  });
  const account = snapshots(
    () => source(),
    (devices) => {
      const built = build(overrides.fleet(devices), options.extras ?? true);
      const patched = new Map([...built.devices].map(([room, records]) => [room, records.map((record) => overrides.record(record.serial_number, record))]));
      return { ...built, devices: patched };
    },
  );
  const ttlMs = (options.tokenTtlSeconds ?? 3600) * 1000;
  const pageTtlMs = (options.pageTokenTtlSeconds ?? 15 * 60) * 1000;
  const tokens = new Map<string, number>();
  const pageTokens = new Map<string, { offset: number; issuedAt: number; listing: string }>();
  let server: FakeServer;
  let pushes: ReturnType<typeof zoomWebhooks> | undefined;
  /** Every device with a serial number, as the webhooks see it. */
  const pushed = (): PushedDevice[] => {
    const { rooms, devices } = account.get();
    return rooms.flatMap((room) =>
      (devices.get(String(room.id)) ?? []).flatMap((record) =>
        typeof record.serial_number === 'string'
          ? [{ serial: record.serial_number, roomId: String(room.id), roomName: String(room.name), deviceType: String(record.device_type), online: record.status === 'Online' }]
          : [],
      ),
    );
  };
  const observe = () => {
    if (pushes?.target) pushes.observe(pushed());
  };
  const webhookControl = (req: import('node:http').IncomingMessage, url: URL, body: string): Reply | undefined => {
    if (url.pathname !== '/_fake/webhook') return undefined;
    if (req.method === 'GET') return json(200, { url: pushes?.target?.url ?? null, ...pushes?.stats });
    if (req.method !== 'POST') return json(405, { message: 'GET or POST' });
    const input = controlBody(body);
    if (typeof input !== 'object' || input === null || Array.isArray(input)) throw new ControlError('the body must be {"url", "secret"} or {"url": null}');
    const { url: to, secret } = input as { url?: unknown; secret?: unknown };
    if (to === null) {
      pushes?.setTarget(undefined);
      return json(200, { url: null });
    }
    if (typeof to !== 'string' || !/^https?:\/\//.test(to)) throw new ControlError('url must be an http(s) URL, or null to stop sending');
    if (typeof secret !== 'string' || secret === '') throw new ControlError('secret must be the secret token to sign with (a non-empty string)');
    setWebhook({ url: to, secret });
    return json(200, { url: to });
  };
  let watcher: NodeJS.Timeout | undefined;
  const setWebhook = (target: WebhookTarget | undefined) => {
    pushes?.setTarget(target);
    // the devices as they are now are the starting point: only later changes are pushed
    observe();
    if (target && !watcher) {
      watcher = setInterval(observe, OBSERVE_MS);
      watcher.unref();
    }
    if (!target && watcher) {
      clearInterval(watcher);
      watcher = undefined;
    }
  };

  const page = (listing: string, url: URL, items: readonly Record<string, unknown>[], field: string, defaultSize: number): Reply => {
    const asked = Number(url.searchParams.get('page_size') ?? defaultSize);
    const size = Number.isInteger(asked) ? Math.min(300, Math.max(1, asked)) : defaultSize;
    const token = url.searchParams.get('next_page_token') ?? '';
    let offset = 0;
    if (token) {
      const known = pageTokens.get(token);
      if (!known || known.listing !== listing || Date.now() - known.issuedAt > pageTtlMs) {
        return json(400, { code: 300, message: 'The next page token is invalid or expired.' });
      }
      offset = known.offset;
    }
    const slice = items.slice(offset, offset + size);
    const pageNumber = Math.floor(offset / size);
    const shown = server.faults.malformedPage === pageNumber && slice[0] ? [{ ...slice[0], id: 42 }, ...slice.slice(1)] : slice;
    let next = '';
    if (offset + size < items.length) {
      next = randomBytes(12).toString('base64url');
      pageTokens.set(next, { offset: offset + size, issuedAt: Date.now(), listing });
    }
    return json(200, { page_size: size, next_page_token: next, [field]: shown, total_records: items.length });
  };

  server = await startFake({
    name: 'zoom',
    trackingHeader: 'x-zm-trackingid',
    faults: options.faults,
    control: (req, url, body) =>
      webhookControl(req, url, body) ?? overrides.control(req, url, body, (serial) => source().some((device) => device.devicesn === serial)),
    port: options.port,
    isToken: (path) => path === '/oauth/token',
    handle: (req, url) => {
      const path = url.pathname;
      if (path === '/oauth/token' && req.method === 'POST') {
        const expected = `Basic ${Buffer.from(`${options.clientId}:${options.clientSecret}`).toString('base64')}`;
        if (req.headers.authorization !== expected) return json(401, { reason: 'Invalid client_id or client_secret', error: 'invalid_client' });
        if (url.searchParams.get('grant_type') !== 'account_credentials' || url.searchParams.get('account_id') !== options.accountId) {
          return json(400, { reason: 'Invalid request : Account ID is invalid', error: 'invalid_request' });
        }
        const token = `fake-zoom-${randomUUID()}`;
        tokens.set(token, Date.now() + ttlMs);
        return json(200, { access_token: token, token_type: 'bearer', expires_in: ttlMs / 1000, scope: 'room:read:admin' });
      }
      const token = bearer(req);
      const expiresAt = token === undefined ? undefined : tokens.get(token);
      if (expiresAt === undefined || expiresAt <= Date.now()) return json(401, { code: 124, message: 'Invalid access token.' });
      const { rooms, devices, locations } = account.get();
      if (path === '/v2/rooms') {
        const status = url.searchParams.get('status');
        const locationId = url.searchParams.get('location_id');
        const listing = `rooms:${status ?? ''}:${locationId ?? ''}`;
        const wanted = rooms.filter((room) => (status === null || room.status === status) && (locationId === null || room.location_id === locationId));
        return page(listing, url, wanted, 'rooms', 30);
      }
      if (path === '/v2/rooms/locations') return page('locations', url, locations, 'locations', 30);
      const match = /^\/v2\/rooms\/([^/]+)\/devices$/.exec(path);
      if (match) {
        const found = devices.get(decodeURIComponent(match[1]!));
        return found ? json(200, { devices: found }) : json(404, { code: 3001, message: 'Room does not exist.' });
      }
      return json(404, { code: 404, message: 'Not found' });
    },
  });
  pushes = zoomWebhooks({ accountId: options.accountId, faults: server.faults, retryDelaysMs: options.webhookRetryDelaysMs });
  if (options.webhook) setWebhook(options.webhook);
  const fake = vendorFake(server, tokens, (devices) => {
    source = devices;
    account.reset();
  });
  const webhooks = pushes;
  return {
    ...fake,
    setWebhook,
    webhookStats: webhooks.stats,
    close: async () => {
      if (watcher) clearInterval(watcher);
      webhooks.close();
      await fake.close();
    },
  };
};
