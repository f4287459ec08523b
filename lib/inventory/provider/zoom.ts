import { mapConcurrent } from '#lib/shared/concurrency';
import type { Place, ProviderDevice, StoredDevice, VendorDetails } from '#lib/devices/types';
import { UNKNOWN_REGION } from './regions';
import { pageBudget, pageGuard, type ListingBounds } from './paging';
import { countSkipped, type DeviceProvider, type ProviderMeter } from './types';
import { cachedTokens, isObject, isString, vendorHttp, type IssuedToken, type VendorHttpOptions } from './vendorHttp';

/*
 * Zoom Rooms (shared/vendors.md): Server-to-Server OAuth, rooms paged by `next_page_token`
 * (a token lives 15 minutes: an older one restarts the listing), each room's devices, and the
 * location tree, whose configured levels give region and location. A room `InMeeting` makes its
 * connected devices' call state ACTIVE.
 */

const ZOOM_API_URL = 'https://api.zoom.us/v2';
const ZOOM_OAUTH_URL = 'https://zoom.us';
export const LOCATION_LEVELS = ['country', 'state', 'city', 'campus', 'building', 'floor'] as const;
export type LocationLevel = (typeof LOCATION_LEVELS)[number];

interface ZoomCredentials {
  accountId?: string;
  clientId?: string;
  clientSecret?: string;
}

interface ZoomOptions {
  apiUrl?: string;
  oauthUrl?: string;
  credentials: (fresh: boolean) => Promise<ZoomCredentials>;
  /** The tree level whose name is the region (default country) and the location (default city). */
  regionLevel?: LocationLevel;
  locationLevel?: LocationLevel;
  /** Name of the region level's node -> region name (default: the node's name). */
  regions?: ReadonlyMap<string, string>;
  pageSize?: number;
  /** How long a `next_page_token` lives (15 minutes); a listing older than this restarts. */
  pageTokenLifetimeMs?: number;
  /** Rooms whose devices are asked for at once. */
  concurrency?: number;
  http?: Omit<VendorHttpOptions, 'vendor'>;
  renewBeforeMs?: number;
  /** Pages of one listing at most, whatever the fleet (default: the budget derived from the fleet, paging.ts). */
  maxPages?: number;
  now?: () => number;
}

interface TreeNode {
  name: string;
  parent?: string;
  type?: string;
}
interface Room {
  id: string;
  name: string;
  locationId?: string;
  status?: string;
}

const NO_LOCATION = 'Unassigned';
/** Restarts of a room listing whose page token expired before the listing fails. */
const RESTARTS = 3;

/** The names of a room's region and location: the nearest ancestors of the configured levels. */
export const placeInTree = (tree: ReadonlyMap<string, TreeNode>, locationId: string | undefined, regionLevel: string, locationLevel: string) => {
  const found: Record<string, string> = {};
  const seen = new Set<string>();
  for (let id = locationId; id && !seen.has(id); id = tree.get(id)?.parent) {
    seen.add(id);
    const node = tree.get(id);
    if (node?.type && !(node.type in found)) found[node.type] = node.name;
  }
  return { region: found[regionLevel], location: found[locationLevel] };
};

/** A Zoom room device as ours; a string reason when it cannot be one. */
const mapZoomDevice = (record: unknown, room: Room, place: Place): ProviderDevice | { skip: string; serial?: string } => {
  if (!isObject(record)) return { skip: 'malformed' };
  const serial = isString(record.serial_number) ? record.serial_number : undefined;
  if (!isString(record.id) || !isString(record.status)) return { skip: 'malformed', serial };
  if (!serial) return { skip: 'noSerial' };
  const connected = record.status === 'Online';
  const vendorDetails: VendorDetails = { connectionDetail: record.status };
  if (isString(record.app_version)) vendorDetails.software = record.app_version;
  if (room.status === 'UnderConstruction') vendorDetails.plannedMaintenance = 'on';
  return {
    deviceid: record.id,
    devicesn: serial,
    devicemodel: isString(record.device_model) ? record.device_model : isString(record.device_type) ? record.device_type : 'unknown',
    status: { connected, inCallStatus: connected && room.status === 'InMeeting' ? 'ACTIVE' : 'NONE' },
    details: place,
    vendor: 'zoom',
    vendorDetails,
    // the room (a refresh asks it; an event names it) and the device's type (an event's component)
    vendorRef: zoomVendorRef(room.id, room.locationId, record.device_type),
  };
};

/** A Zoom device's handle: `<roomId>/<locationId>/<device type, URI-encoded>` (lib/inventory/pure/vendorRooms.ts reads it). */
const zoomVendorRef = (roomId: string, locationId: string | undefined, deviceType: unknown): string =>
  `${roomId}/${locationId ?? ''}${isString(deviceType) ? `/${encodeURIComponent(deviceType)}` : ''}`;

export const zoomProvider = (options: ZoomOptions): DeviceProvider => {
  const api = (options.apiUrl ?? ZOOM_API_URL).replace(/\/+$/, '');
  const oauth = (options.oauthUrl ?? ZOOM_OAUTH_URL).replace(/\/+$/, '');
  const regionLevel = options.regionLevel ?? 'country';
  const locationLevel = options.locationLevel ?? 'city';
  const regions = options.regions ?? new Map<string, string>();
  const pageSize = Math.min(300, Math.max(30, options.pageSize ?? 300));
  const tokenLifetimeMs = options.pageTokenLifetimeMs ?? 15 * 60_000;
  const now = options.now ?? Date.now;
  const renewBeforeMs = options.renewBeforeMs ?? 5 * 60_000;
  const http = vendorHttp({ trackingHeader: 'x-zm-trackingid', ...options.http, vendor: 'zoom' });

  const issue = async (fresh: boolean, meter?: ProviderMeter): Promise<IssuedToken> => {
    const { accountId, clientId, clientSecret } = await options.credentials(fresh);
    if (!accountId || !clientId || !clientSecret) return http.fail('no credentials (ZOOM_ACCOUNT_ID, ZOOM_CLIENT_ID, ZOOM_CLIENT_SECRET)');
    const query = new URLSearchParams({ grant_type: 'account_credentials', account_id: accountId });
    const basic = Buffer.from(`${clientId}:${clientSecret}`).toString('base64');
    const answer = await http.send(`${oauth}/oauth/token?${query}`, { method: 'POST', headers: { authorization: `Basic ${basic}` } }, meter);
    const body = answer.body;
    if (answer.status !== 200 || !isObject(body) || !isString(body.access_token)) return http.fail(`the token request answered ${answer.status}`, answer.status);
    const lifetime = typeof body.expires_in === 'number' ? body.expires_in * 1000 : 3_600_000;
    return { token: body.access_token, expiresAt: now() + lifetime };
  };
  const tokens = cachedTokens(issue, renewBeforeMs, now);

  const get = async (path: string, meter?: ProviderMeter) => {
    const answer = await http.get(`${api}${path}`, tokens, meter);
    return { ...answer, body: isObject(answer.body) ? answer.body : undefined, trackingId: answer.headers.get('x-zm-trackingid') ?? undefined };
  };

  /**
   * Every page of a `next_page_token` listing; undefined when a page token expired (restart). A
   * token seen before in this listing, or a page past the budget, ends it (paging.ts).
   */
  const pages = async (path: string, field: string, params: Record<string, string>, bounds: ListingBounds, meter?: ProviderMeter): Promise<unknown[] | undefined> => {
    const items: unknown[] = [];
    const guard = pageGuard('zoom', path, options.maxPages ?? pageBudget(pageSize, bounds));
    let token = '';
    let tokenAt = now();
    for (;;) {
      guard.visit(token);
      // a token past its lifetime is refused: start again rather than send it
      if (token && now() - tokenAt >= tokenLifetimeMs) return undefined;
      const query = new URLSearchParams({ ...params, page_size: String(pageSize), ...(token ? { next_page_token: token } : {}) });
      const answer = await get(`${path}?${query}`, meter);
      if (answer.status === 400 && token) return undefined;
      const list = answer.body?.[field];
      if (answer.status !== 200 || !Array.isArray(list)) return http.fail(`a page of ${path} answered ${answer.status} without a ${field} array`, answer.status, answer.trackingId);
      items.push(...list);
      token = isString(answer.body?.next_page_token) ? answer.body.next_page_token : '';
      tokenAt = now();
      if (!token) return items;
    }
  };
  const listAll = async (path: string, field: string, bounds: ListingBounds, meter?: ProviderMeter, params: Record<string, string> = {}): Promise<unknown[]> => {
    for (let attempt = 0; attempt <= RESTARTS; attempt++) {
      const items = await pages(path, field, params, bounds, meter);
      if (items) return items;
    }
    return http.fail(`${path}: the page token expired ${RESTARTS + 1} times in a row`);
  };

  const treeOf = async (bounds: ListingBounds, meter?: ProviderMeter) => {
    const tree = new Map<string, TreeNode>();
    for (const item of await listAll('/rooms/locations', 'locations', bounds, meter)) {
      if (!isObject(item) || !isString(item.id) || !isString(item.name)) continue;
      tree.set(item.id, { name: item.name, ...(isString(item.parent_location_id) ? { parent: item.parent_location_id } : {}), ...(isString(item.type) ? { type: item.type } : {}) });
    }
    return tree;
  };
  const placeOf = (tree: ReadonlyMap<string, TreeNode>, room: Room): Place => {
    const found = placeInTree(tree, room.locationId, regionLevel, locationLevel);
    return { region: found.region ? (regions.get(found.region) ?? found.region) : UNKNOWN_REGION, location: found.location ?? NO_LOCATION, room: room.name };
  };
  const roomDevices = async (roomId: string, meter?: ProviderMeter): Promise<unknown[] | undefined> => {
    const answer = await get(`/rooms/${encodeURIComponent(roomId)}/devices`, meter);
    if (answer.status === 404) return undefined;
    const list = answer.body?.devices;
    if (answer.status !== 200 || !Array.isArray(list)) return http.fail(`the devices of a room answered ${answer.status} without a devices array`, answer.status, answer.trackingId);
    return list;
  };
  const collect = (records: unknown[], room: Room, place: Place, meter?: ProviderMeter): ProviderDevice[] => {
    const devices: ProviderDevice[] = [];
    for (const record of records) {
      const mapped = mapZoomDevice(record, room, place);
      if ('skip' in mapped) {
        countSkipped(meter, mapped.skip);
        if (mapped.serial && meter) meter.unreadable.push(mapped.serial);
      } else devices.push(mapped);
    }
    return devices;
  };

  return {
    async listDevices(meter, bounds = {}) {
      const [tree, roomItems] = await Promise.all([treeOf(bounds, meter), listAll('/rooms', 'rooms', bounds, meter)]);
      const rooms = new Map<string, Room>();
      for (const item of roomItems) {
        if (!isObject(item) || !isString(item.id) || !isString(item.name)) {
          countSkipped(meter, 'malformedRoom');
          continue;
        }
        rooms.set(item.id, { id: item.id, name: item.name, ...(isString(item.location_id) ? { locationId: item.location_id } : {}), ...(isString(item.status) ? { status: item.status } : {}) });
      }
      const perRoom = await mapConcurrent([...rooms.values()], options.concurrency ?? 8, async (room) => {
        // a room deleted since the listing has no devices to report
        const records = (await roomDevices(room.id, meter)) ?? [];
        return collect(records, room, placeOf(tree, room), meter);
      });
      return perRoom.flat();
    },
    /*
     * Zoom filters rooms, not devices: one listing of the rooms `Offline`, then the devices of
     * only the rooms where it and what we hold differ: a room with a device we hold not connected
     * that is no longer Offline (back, or one device out in a room that is up), and a room Offline
     * where we hold none not connected. A device we hold not connected in a room still Offline
     * stays so without a read. What this cannot see (one device down in a room that stays up,
     * while we hold it connected) is the sync's and the pushed events' to tell.
     */
    async pollStatus(held, meter) {
      const offline = new Set<string>();
      for (const item of await listAll('/rooms', 'rooms', {}, meter, { status: 'Offline' })) {
        // the filter's own answer is checked: a room listed with another status is not offline
        if (isObject(item) && isString(item.id) && (item.status === undefined || item.status === 'Offline')) offline.add(item.id);
      }
      const notConnected = new Set<string>();
      const unread = new Set<string>();
      const heldIn = new Map<string, StoredDevice[]>();
      for (const device of held) {
        const [roomId] = (device.vendorRef ?? '').split('/');
        if (!roomId) unread.add(device.devicesn);
        else heldIn.set(roomId, [...(heldIn.get(roomId) ?? []), device]);
      }
      const toRead = [...heldIn.keys()].filter((room) => !offline.has(room)).concat([...offline].filter((room) => !heldIn.has(room)));
      for (const [room, devices] of heldIn) if (offline.has(room)) for (const device of devices) notConnected.add(device.devicesn);
      await mapConcurrent(toRead, options.concurrency ?? 8, async (room) => {
        const records = await roomDevices(room, meter);
        const seen = new Set<string>();
        for (const record of records ?? []) {
          if (!isObject(record) || !isString(record.serial_number) || !isString(record.status)) continue;
          seen.add(record.serial_number);
          if (record.status !== 'Online') notConnected.add(record.serial_number);
        }
        // a device we hold there that the room no longer lists (moved, removed): the sync tells
        for (const device of heldIn.get(room) ?? []) if (!seen.has(device.devicesn)) unread.add(device.devicesn);
      });
      return { notConnected, unread };
    },
    async getDevice(devicesn, stored?: StoredDevice, meter?: ProviderMeter) {
      const [roomId, locationId] = (stored?.vendorRef ?? '').split('/');
      // a device the sync has not stored from Zoom: no room to ask (Zoom has no lookup by serial number)
      if (!stored || !roomId) return undefined;
      const records = await roomDevices(roomId, meter);
      if (!records) return undefined;
      // the room's status: is it among the rooms of its location in a meeting
      const inMeeting = (await listAll('/rooms', 'rooms', {}, meter, { status: 'InMeeting', ...(locationId ? { location_id: locationId } : {}) })).some(
        (room) => isObject(room) && room.id === roomId,
      );
      const room: Room = { id: roomId, name: stored.details.room, ...(locationId ? { locationId } : {}), status: inMeeting ? 'InMeeting' : 'Available' };
      return collect(records, room, stored.details, meter).find((device) => device.devicesn === devicesn);
    },
  };
};
