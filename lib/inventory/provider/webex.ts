import { CALL_STATE_UNKNOWN, type ProviderDevice, type StoredDevice, type VendorDetails } from '#lib/devices/types';
import { regionOfCountry, UNKNOWN_REGION } from './regions';
import { pageBudget, pageGuard, type ListingBounds } from './paging';
import { countSkipped, type DeviceProvider, type ProviderMeter } from './types';
import { cachedTokens, isObject, isString, vendorHttp, type IssuedToken, type VendorHttpOptions } from './vendorHttp';

/*
 * Webex (Control Hub) devices, workspaces and locations (shared/vendors.md). A device is keyed by
 * its serial number and placed by its workspace (the room) and the workspace's location (the
 * location; its country code gives the region). The listing says nothing of calls: a listed
 * device's call state stays what the last refresh saw (CALL_STATE_UNKNOWN); a refresh asks xAPI.
 */

const WEBEX_API_URL = 'https://webexapis.com/v1';

/** An access token, or what renews one (an integration's refresh token; a service app's too). */
interface WebexCredentials {
  accessToken?: string;
  clientId?: string;
  clientSecret?: string;
  refreshToken?: string;
}

interface WebexOptions {
  apiUrl?: string;
  /** Read again (`fresh`) when a token is refused: a rotated secret is picked up. */
  credentials: (fresh: boolean) => Promise<WebexCredentials>;
  /** Page size of the device listing (`max`). */
  pageSize?: number;
  /** Country code -> region, over the default grouping by continent. */
  regions?: ReadonlyMap<string, string>;
  http?: Omit<VendorHttpOptions, 'vendor' | 'trackingHeader'>;
  /** Renew a token this long before it expires. */
  renewBeforeMs?: number;
  /** Pages of one listing at most, whatever the fleet (default: the budget derived from the fleet, paging.ts). */
  maxPages?: number;
  now?: () => number;
}

const CONNECTED = new Set(['connected', 'connected_with_issues']);
/** Every other `connectionStatus` the reference lists: what a status poll asks for, one filter each (the filter takes one value). */
export const NOT_CONNECTED = ['disconnected', 'offline_expired', 'offline_deep_sleep', 'activating', 'unknown'] as const;
const NO_LOCATION = 'Unassigned';

/**
 * Whether a status poll lists the devices unfiltered: when the fleet we hold (its last listing)
 * takes fewer pages than one listing per not-connected status. Unknown or none (no sync has
 * listed it yet): filtered, whose cost does not grow with the fleet.
 */
export const unfilteredIsCheaper = (fleet: number | undefined, pageSize: number): boolean =>
  fleet !== undefined && fleet > 0 && Math.ceil(fleet / pageSize) < NOT_CONNECTED.length;

/** The next page's URL from an RFC 8288 `Link` header, resolved against the page's own URL. */
export const nextLink = (header: string | null, base: string): string | undefined => {
  if (!header) return undefined;
  for (const part of header.split(/,(?=\s*<)/)) {
    const match = /^\s*<([^>]*)>(.*)$/.exec(part);
    if (!match) continue;
    const rel = /;\s*rel\s*=\s*(?:"([^"]*)"|([^\s;,]+))/i.exec(match[2] ?? '');
    if ((rel?.[1] ?? rel?.[2] ?? '').split(/\s+/).includes('next')) return new URL(match[1]!, base).toString();
  }
  return undefined;
};

const maintenanceOf = (value: unknown): string | undefined => {
  if (isString(value)) return value;
  if (isObject(value) && isString(value.mode)) return value.mode;
  return undefined;
};

interface Place {
  displayName: string;
  locationId?: string;
}
interface Location {
  displayName: string;
  countryCode?: string;
}

/** A Webex device record as ours; a string reason when it cannot be one. */
const mapWebexDevice = (
  record: unknown,
  workspaces: ReadonlyMap<string, Place>,
  locations: ReadonlyMap<string, Location>,
  regions: ReadonlyMap<string, string>,
): ProviderDevice | { skip: string; serial?: string } => {
  if (!isObject(record)) return { skip: 'malformed' };
  const serial = isString(record.serial) ? record.serial : undefined;
  if (!isString(record.id) || (record.connectionStatus !== undefined && typeof record.connectionStatus !== 'string')) return { skip: 'malformed', serial };
  const workspaceId = isString(record.workspaceId) ? record.workspaceId : isString(record.placeId) ? record.placeId : undefined;
  if (!workspaceId) return { skip: 'personal' };
  if (!serial) return { skip: 'noSerial' };
  const workspace = workspaces.get(workspaceId);
  // a workspace created after the workspace listing: held until the next sync sees it
  if (!workspace) return { skip: 'unknownWorkspace', serial };
  const locationId = workspace.locationId ?? (isString(record.locationId) ? record.locationId : undefined);
  const location = locationId ? locations.get(locationId) : undefined;
  const connectionStatus = isString(record.connectionStatus) ? record.connectionStatus : 'unknown';
  const connected = CONNECTED.has(connectionStatus);
  const vendorDetails: VendorDetails = { connectionDetail: connectionStatus };
  if (Array.isArray(record.errorCodes) && record.errorCodes.length > 0) vendorDetails.errorCodes = record.errorCodes.filter(isString).sort();
  if (isString(record.software)) vendorDetails.software = record.software;
  if (!connected && isString(record.lastSeen)) vendorDetails.lastSeen = record.lastSeen;
  const maintenance = maintenanceOf(record.plannedMaintenance);
  if (maintenance) vendorDetails.plannedMaintenance = maintenance;
  return {
    deviceid: record.id,
    devicesn: serial,
    devicemodel: isString(record.product) ? record.product : 'unknown',
    status: { connected, inCallStatus: connected ? CALL_STATE_UNKNOWN : 'NONE' },
    details: {
      region: location ? regionOfCountry(regions, location.countryCode) : UNKNOWN_REGION,
      location: location?.displayName ?? NO_LOCATION,
      room: workspace.displayName,
    },
    vendor: 'webex',
    vendorDetails,
  };
};

const toPlace = (item: Record<string, unknown>): Place | undefined =>
  isString(item.displayName) ? { displayName: item.displayName, ...(isString(item.locationId) ? { locationId: item.locationId } : {}) } : undefined;
const toLocation = (item: Record<string, unknown>): Location | undefined =>
  isString(item.displayName) ? { displayName: item.displayName, ...(isString(item.countryCode) ? { countryCode: item.countryCode } : {}) } : undefined;

export const webexProvider = (options: WebexOptions): DeviceProvider => {
  const base = (options.apiUrl ?? WEBEX_API_URL).replace(/\/+$/, '');
  const origin = new URL(base).origin;
  const pageSize = options.pageSize ?? 1000;
  const regions = options.regions ?? new Map<string, string>();
  const now = options.now ?? Date.now;
  const renewBeforeMs = options.renewBeforeMs ?? 10 * 60_000;
  const http = vendorHttp({ ...options.http, vendor: 'webex', trackingHeader: 'trackingid' });

  const issue = async (fresh: boolean, meter?: ProviderMeter): Promise<IssuedToken> => {
    const credentials = await options.credentials(fresh);
    if (credentials.clientId && credentials.clientSecret && credentials.refreshToken) {
      const form = new URLSearchParams({
        grant_type: 'refresh_token',
        client_id: credentials.clientId,
        client_secret: credentials.clientSecret,
        refresh_token: credentials.refreshToken,
      });
      const answer = await http.send(`${base}/access_token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form.toString() }, meter);
      const body = answer.body;
      if (answer.status !== 200 || !isObject(body) || !isString(body.access_token)) return http.fail(`the token request answered ${answer.status}`, answer.status);
      const lifetime = typeof body.expires_in === 'number' ? body.expires_in * 1000 : 3_600_000;
      return { token: body.access_token, expiresAt: now() + lifetime };
    }
    // a token given as is (a bot's, or one an operator renews): read again after a 401
    if (credentials.accessToken) return { token: credentials.accessToken, expiresAt: Number.POSITIVE_INFINITY };
    return http.fail('no credentials (WEBEX_ACCESS_TOKEN, or WEBEX_CLIENT_ID, WEBEX_CLIENT_SECRET and WEBEX_REFRESH_TOKEN)');
  };
  const tokens = cachedTokens(issue, renewBeforeMs, now);

  const getJson = async (url: string, meter?: ProviderMeter): Promise<{ body: Record<string, unknown>; headers: Headers } | undefined> => {
    const answer = await http.get(url, tokens, meter);
    if (answer.status === 404) return undefined;
    if (answer.status !== 200 || !isObject(answer.body)) return http.fail(`${new URL(url).pathname} answered ${answer.status}`, answer.status, answer.headers.get('trackingid') ?? undefined);
    return { body: answer.body, headers: answer.headers };
  };

  /**
   * The next page's URL, followed only on the configured API's origin (scheme, host, port): the
   * request carries our bearer token, which a `Link` to anywhere else would hand over. Another
   * origin ends the listing as a failure, named without the link's path or query.
   */
  const sameOrigin = (next: string | undefined, path: string): string | undefined => {
    if (next === undefined || new URL(next).origin === origin) return next;
    return http.fail(`${path}: the next page link points to another origin (${new URL(next).origin}), not followed`);
  };

  /**
   * Every item of a listing: `link` follows the `Link` header's next URL as given, on our own
   * origin only (no next: the last page); `offset` pages by `start` until a short page (workspaces
   * declare no `Link`). A page seen twice, or one past the budget, ends it (paging.ts).
   */
  const listAll = async (
    path: string,
    max: number,
    paging: 'link' | 'offset',
    bounds: ListingBounds,
    meter?: ProviderMeter,
    each?: (items: unknown[]) => void,
    filter: Record<string, string> = {},
  ): Promise<unknown[]> => {
    const items: unknown[] = [];
    const guard = pageGuard('webex', path, options.maxPages ?? pageBudget(max, bounds));
    const filtered = Object.keys(filter).length > 0 ? `&${new URLSearchParams(filter)}` : '';
    let url: string | undefined = `${base}${path}?max=${max}${filtered}`;
    for (let start = 0; url; ) {
      guard.visit(url);
      const answer = await getJson(url, meter);
      const pageItems = answer?.body.items;
      if (!answer || !Array.isArray(pageItems)) return http.fail(`a page of ${path} has no items array`);
      // a page handed to `each` is read and let go (100k raw records held at once cost ~150 MB)
      if (each) each(pageItems);
      else items.push(...pageItems);
      start += pageItems.length;
      if (paging === 'link') url = sameOrigin(nextLink(answer.headers.get('link'), url), path);
      else url = pageItems.length >= max ? `${base}${path}?max=${max}&start=${start}${filtered}` : undefined;
    }
    return items;
  };

  const byId = <T>(items: unknown[], read: (item: Record<string, unknown>) => T | undefined): Map<string, T> => {
    const found = new Map<string, T>();
    for (const item of items) {
      if (!isObject(item) || !isString(item.id)) continue;
      const value = read(item);
      if (value) found.set(item.id, value);
    }
    return found;
  };

  const callState = async (record: Record<string, unknown>, stored: StoredDevice | undefined, meter?: ProviderMeter): Promise<string> => {
    const capabilities = Array.isArray(record.capabilities) ? record.capabilities : [];
    if (!capabilities.includes('xapi')) return stored?.status.connected ? stored.status.inCallStatus : 'NONE';
    const query = new URLSearchParams({ deviceId: String(record.id), name: 'SystemUnit.State.NumberOfActiveCalls' });
    const answer = await getJson(`${base}/xapi/status?${query}`, meter);
    const state = answer?.body.result;
    const calls = isObject(state) && isObject(state.SystemUnit) && isObject(state.SystemUnit.State) ? state.SystemUnit.State.NumberOfActiveCalls : undefined;
    return typeof calls === 'number' && calls > 0 ? 'ACTIVE' : 'NONE';
  };

  return {
    async listDevices(meter, bounds = {}) {
      // places first, so that each page of devices is mapped as it comes
      const [locationItems, workspaceItems] = await Promise.all([listAll('/locations', 1000, 'link', bounds, meter), listAll('/workspaces', 1000, 'offset', bounds, meter)]);
      const locations = byId(locationItems, toLocation);
      const workspaces = byId(workspaceItems, toPlace);
      const devices: ProviderDevice[] = [];
      await listAll('/devices', pageSize, 'link', bounds, meter, (page) => {
        for (const record of page) {
          const mapped = mapWebexDevice(record, workspaces, locations, regions);
          if ('skip' in mapped) {
            countSkipped(meter, mapped.skip);
            if (mapped.serial && meter) meter.unreadable.push(mapped.serial);
          } else devices.push(mapped);
        }
      });
      return devices;
    },
    /*
     * What is not connected, by whichever costs fewer requests: one short listing per
     * not-connected status (the filter is server-side and takes one value: five listings however
     * small the fleet), or the devices alone unfiltered, when the fleet we hold fits in fewer pages
     * than that (a full sync also lists workspaces and locations; a poll reads only connectivity).
     * A record is counted by its own `connectionStatus`, never by the filter asked for: a next
     * page whose link dropped the filter lists connected devices too, and they must not read as
     * disconnected.
     */
    async pollStatus(_held, meter, bounds = {}) {
      const notConnected = new Set<string>();
      const read = (page: unknown[]) => {
        for (const record of page) {
          if (!isObject(record) || !isString(record.serial)) continue;
          const connectionStatus = isString(record.connectionStatus) ? record.connectionStatus : 'unknown';
          if (!CONNECTED.has(connectionStatus)) notConnected.add(record.serial);
        }
      };
      if (unfilteredIsCheaper(bounds.fleet, pageSize)) await listAll('/devices', pageSize, 'link', bounds, meter, read);
      else await Promise.all(NOT_CONNECTED.map((status) => listAll('/devices', pageSize, 'link', {}, meter, read, { connectionStatus: status })));
      return { notConnected };
    },
    async getDevice(devicesn, stored, meter) {
      const found = await getJson(`${base}/devices?${new URLSearchParams({ serial: devicesn })}`, meter);
      const record = Array.isArray(found?.body.items) ? found.body.items.find((item) => isObject(item) && item.serial === devicesn) : undefined;
      if (!isObject(record)) return undefined;
      const workspaceId = isString(record.workspaceId) ? record.workspaceId : isString(record.placeId) ? record.placeId : undefined;
      const workspace = workspaceId ? await getJson(`${base}/workspaces/${encodeURIComponent(workspaceId)}`, meter) : undefined;
      const place = workspace ? toPlace(workspace.body) : undefined;
      const locationId = place?.locationId ?? (isString(record.locationId) ? record.locationId : undefined);
      const location = locationId ? await getJson(`${base}/locations/${encodeURIComponent(locationId)}`, meter) : undefined;
      const mapped = mapWebexDevice(
        record,
        new Map(workspaceId && place ? [[workspaceId, place]] : []),
        new Map(locationId && location && toLocation(location.body) ? [[locationId, toLocation(location.body)!]] : []),
        regions,
      );
      if ('skip' in mapped) return http.fail(`device ${devicesn} cannot be read (${mapped.skip})`);
      if (mapped.status.connected) mapped.status.inCallStatus = await callState(record, stored, meter);
      return mapped;
    },
  };
};
