import type { ProviderDevice } from '#lib/devices/types';
import { seededRandom as random } from '#lib/shared/random';
import type { DeviceProvider } from './types';

interface SimulatedFleetOptions {
  seed: number;
  /** Number of devices (SEED_DEVICES). */
  devices: number;
  /** Number of rooms; default a quarter of the devices. Never more than the devices. */
  rooms?: number;
  /** Devices whose status differs from the base fleet in each tick (SIM_CHURN); 0 = still. */
  churn?: number;
  /** Length of one tick of simulated time. */
  tickSeconds?: number;
  now?: () => number;
}

const HIERARCHY: ReadonlyArray<[string, string[]]> = [
  ['Americas', ['New York', 'Toronto', 'Chicago']],
  ['EMEA', ['London', 'Madrid', 'Berlin']],
  ['APAC', ['Singapore', 'Sydney', 'Tokyo']],
  ['LATAM', ['Bogota', 'Sao Paulo', 'Mexico City']],
];
const LOCATIONS = HIERARCHY.flatMap(([region, locations]) => locations.map((location) => ({ region, location })));
const MODELS = ['Studio X30', 'Studio X50', 'Studio X70', 'G7500', 'Trio C60'];

const serial = (index: number) => `VD${String(index + 1).padStart(6, '0')}`;

/** The base fleet: regions -> locations -> rooms -> devices, a pure function of the options. */
export const simulatedFleet = ({ seed, devices, rooms }: SimulatedFleetOptions): ProviderDevice[] => {
  const roomCount = Math.max(1, Math.min(devices, rooms ?? Math.ceil(devices / 4)));
  const next = random(seed);
  const fleet: ProviderDevice[] = [];
  for (let i = 0; i < devices; i++) {
    // the first device of each room makes every room non-empty; the rest land anywhere
    const roomIndex = i < roomCount ? i : Math.floor(next() * roomCount);
    const place = LOCATIONS[roomIndex % LOCATIONS.length]!;
    const connected = next() < 0.85;
    fleet.push({
      deviceid: `dev-${Math.floor(next() * 0xffffffff).toString(16).padStart(8, '0')}-${i + 1}`,
      devicesn: serial(i),
      devicemodel: MODELS[Math.floor(next() * MODELS.length)]!,
      status: { connected, inCallStatus: connected && next() < 0.3 ? 'ACTIVE' : 'NONE' },
      details: { region: place.region, location: place.location, room: `Room ${Math.floor(roomIndex / LOCATIONS.length) + 1}` },
    });
  }
  return fleet;
};

/**
 * A simulated vendor: the base fleet, with `churn` devices flipped (connected <-> not) in each
 * tick of the clock. The state is a function of seed and time only, so the sync and the
 * refresh endpoint (different processes) see the same device the same way.
 */
export const simulatedProvider = (options: SimulatedFleetOptions): DeviceProvider => {
  const base = simulatedFleet(options);
  const index = new Map(base.map((device, i) => [device.devicesn, i]));
  const churn = Math.min(options.churn ?? 0, base.length);
  const tickMs = (options.tickSeconds ?? 60) * 1000;
  const now = options.now ?? Date.now;

  const flippedNow = (): Set<number> => {
    if (churn === 0) return new Set();
    const tick = Math.floor(now() / tickMs);
    const next = random((options.seed ^ Math.imul(tick, 0x9e3779b1)) >>> 0);
    const flipped = new Set<number>();
    while (flipped.size < churn) flipped.add(Math.floor(next() * base.length));
    return flipped;
  };
  const stateOf = (device: ProviderDevice, flipped: boolean): ProviderDevice => {
    if (!flipped) return device;
    const connected = !device.status.connected;
    return { ...device, status: { connected, inCallStatus: connected ? device.status.inCallStatus : 'NONE' } };
  };

  return {
    async listDevices() {
      const flipped = flippedNow();
      return base.map((device, i) => stateOf(device, flipped.has(i)));
    },
    async getDevice(devicesn) {
      const i = index.get(devicesn);
      return i === undefined ? undefined : stateOf(base[i]!, flippedNow().has(i));
    },
    // the simulated vendor's filter: its devices not connected at this instant, as a listing would show them
    async pollStatus(_held, meter) {
      if (meter) meter.requests++;
      const flipped = flippedNow();
      return { notConnected: new Set(base.filter((device, i) => !stateOf(device, flipped.has(i)).status.connected).map((device) => device.devicesn)) };
    },
  };
};
