import type { ProviderDevice } from '#lib/devices/types';
import type { DeviceProvider } from './types';
import { isString, ProviderError } from './vendorHttp';
import { timeoutSignal } from '#lib/shared/timer';
import { pageGuard } from './paging';

interface HttpProviderOptions {
  baseUrl: string;
  /** Sent as a bearer token; never logged. A function is asked before each request (it caches: lib/adapters/secrets.ts). */
  token: string | (() => Promise<string | undefined>);
  timeoutMs?: number;
  /** Safety bound on pages followed in one listing. */
  maxPages?: number;
}

export { ProviderError };

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

/** Accepts the vendor's device record only if it has every field we store. */
const parseProviderDevice = (value: unknown): ProviderDevice => {
  if (
    isObject(value) &&
    isString(value.deviceid) &&
    isString(value.devicesn) &&
    typeof value.devicemodel === 'string' &&
    isObject(value.status) &&
    typeof value.status.connected === 'boolean' &&
    typeof value.status.inCallStatus === 'string' &&
    isObject(value.details) &&
    isString(value.details.region) &&
    isString(value.details.location) &&
    isString(value.details.room)
  ) {
    return {
      deviceid: value.deviceid,
      devicesn: value.devicesn,
      devicemodel: value.devicemodel,
      status: { connected: value.status.connected, inCallStatus: value.status.inCallStatus },
      details: { region: value.details.region, location: value.details.location, room: value.details.room },
    };
  }
  throw new ProviderError('device provider answered a device record without the expected fields');
};

/**
 * The vendor API: `GET {base}/devices[?cursor=c]` -> `{devices: [...], nextCursor?}`,
 * `GET {base}/devices/{sn}` -> a device or 404. Bearer token auth.
 */
export const httpProvider = ({ baseUrl, token, timeoutMs = 5000, maxPages = 10_000 }: HttpProviderOptions): DeviceProvider => {
  const base = baseUrl.replace(/\/+$/, '');
  const get = async (path: string): Promise<{ status: number; body: unknown }> => {
    let response: Response;
    let bearer: string | undefined;
    try {
      bearer = typeof token === 'string' ? token : await token();
    } catch (error) {
      throw new ProviderError(`device provider token unreadable: ${error instanceof Error ? error.name : 'error'}`);
    }
    try {
      response = await fetch(`${base}${path}`, {
        headers: { authorization: `Bearer ${bearer ?? ''}`, accept: 'application/json' },
        signal: timeoutSignal(timeoutMs),
      });
    } catch (error) {
      throw new ProviderError(`device provider unreachable: ${error instanceof Error ? error.name : 'error'}`);
    }
    if (response.status === 404) return { status: 404, body: undefined };
    if (!response.ok) throw new ProviderError(`device provider answered ${response.status} for ${path.split('?')[0]}`);
    try {
      return { status: response.status, body: await response.json() };
    } catch {
      throw new ProviderError('device provider answered something that is not JSON');
    }
  };

  return {
    async listDevices() {
      const devices: ProviderDevice[] = [];
      let cursor: string | undefined;
      // a cursor answered twice never ends; this protocol's page size is the vendor's, so the budget stays maxPages
      const guard = pageGuard('device provider', '/devices', maxPages);
      for (;;) {
        guard.visit(cursor ?? '');
        const { body } = await get(`/devices${cursor ? `?cursor=${encodeURIComponent(cursor)}` : ''}`);
        if (!isObject(body) || !Array.isArray(body.devices)) throw new ProviderError('device provider listing has no devices array');
        devices.push(...body.devices.map(parseProviderDevice));
        cursor = isString(body.nextCursor) ? body.nextCursor : undefined;
        if (!cursor) return devices;
      }
    },
    async getDevice(devicesn) {
      const { status, body } = await get(`/devices/${encodeURIComponent(devicesn)}`);
      return status === 404 ? undefined : parseProviderDevice(body);
    },
  };
};
