/**
 * The fakes' fleet: the simulated generator's devices (lib/inventory/provider/simulated.ts), each
 * room given to one vendor (rooms alternate: a room is a Webex workspace or a Zoom Room, as in
 * a real building), and the facts a vendor keeps that the generator does not (countries, ids).
 */
import { createHash } from 'node:crypto';
import { roomKey, type ProviderDevice } from '../../../lib/devices/types';

/** A deterministic short id: the same input, the same id, in every process. */
export const idOf = (prefix: string, ...parts: string[]): string =>
  `${prefix}${createHash('sha1').update(parts.join('\u0000')).digest('hex').slice(0, 16)}`;

/** A small deterministic number from a string (picks the vendor's extra facts per device). */
export const hashOf = (text: string): number => createHash('sha1').update(text).digest().readUInt32BE(0);

/** The generator's cities and their countries; another city gets country ZZ. */
const CITIES: Record<string, { countryCode: string; country: string }> = {
  'New York': { countryCode: 'US', country: 'United States' },
  Toronto: { countryCode: 'CA', country: 'Canada' },
  Chicago: { countryCode: 'US', country: 'United States' },
  London: { countryCode: 'GB', country: 'United Kingdom' },
  Madrid: { countryCode: 'ES', country: 'Spain' },
  Berlin: { countryCode: 'DE', country: 'Germany' },
  Singapore: { countryCode: 'SG', country: 'Singapore' },
  Sydney: { countryCode: 'AU', country: 'Australia' },
  Tokyo: { countryCode: 'JP', country: 'Japan' },
  Bogota: { countryCode: 'CO', country: 'Colombia' },
  'Sao Paulo': { countryCode: 'BR', country: 'Brazil' },
  'Mexico City': { countryCode: 'MX', country: 'Mexico' },
};
export const countryOf = (city: string) => CITIES[city] ?? { countryCode: 'ZZ', country: 'Unknown country' };

/**
 * Zoom's tree has no regions: the country node's name -> the generator's region, so that a mixed
 * fleet shows one set of regions (ZOOM_REGION_MAP of npm start).
 */
export const zoomRegionMap = (devices: readonly ProviderDevice[]): Record<string, string> =>
  Object.fromEntries(devices.map((d) => [countryOf(d.details.location).country, d.details.region]));

/** Rooms in order of first appearance alternate between Webex (even) and Zoom (odd). */
export const splitFleet = (devices: readonly ProviderDevice[]): { webex: ProviderDevice[]; zoom: ProviderDevice[] } => {
  const order = new Map<string, number>();
  for (const device of devices) if (!order.has(roomKey(device.details))) order.set(roomKey(device.details), order.size);
  return {
    webex: devices.filter((d) => order.get(roomKey(d.details))! % 2 === 0),
    zoom: devices.filter((d) => order.get(roomKey(d.details))! % 2 === 1),
  };
};

/** Devices grouped by room, rooms in order of first appearance. */
export const byRoom = (devices: readonly ProviderDevice[]): ProviderDevice[][] => {
  const rooms = new Map<string, ProviderDevice[]>();
  for (const device of devices) {
    const members = rooms.get(roomKey(device.details));
    if (members) members.push(device);
    else rooms.set(roomKey(device.details), [device]);
  }
  return [...rooms.values()];
};

/** The vendor's view of a fleet, built again only when the source hands out another list. */
export const snapshots = <T>(source: () => readonly ProviderDevice[], build: (devices: readonly ProviderDevice[]) => T) => {
  let taken: { from: readonly ProviderDevice[]; value: T } | undefined;
  return {
    get(): T {
      const devices = source();
      if (taken?.from !== devices) taken = { from: devices, value: build(devices) };
      return taken.value;
    },
    reset() {
      taken = undefined;
    },
  };
};
