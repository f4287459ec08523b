import type { StoredDevice } from '#lib/devices/types';
import type { StatusReading } from '../provider/types';

/*
 * A status poll's comparison (docs/guide/rules/inventory.md "Status polls between syncs"): what a
 * vendor says is not connected now, against what we hold of that vendor. Pure: the reading and the
 * stored devices in, the connectivity to observe out; only a difference is observed.
 */

/** One device whose connectivity the poll saw differ from what is stored. */
export interface PolledConnectivity {
  devicesn: string;
  connected: boolean;
}

interface Comparison {
  /** The vendor polled: only its devices are compared (a serial number another provider owns is not its to change). */
  vendor: string;
  /** The first provider of DEVICE_PROVIDERS: the owner of a device stored before devices carried their vendor. */
  firstProvider: string;
  reading: StatusReading;
  /** The devices of this vendor we hold not connected. */
  heldNotConnected: readonly StoredDevice[];
  /** The stored devices the vendor says are not connected, as far as we hold them (any state, any vendor). */
  listed: readonly StoredDevice[];
}

export const compareStatus = ({ vendor, firstProvider, reading, heldNotConnected, listed }: Comparison): PolledConnectivity[] => {
  const ours = (device: StoredDevice) => (device.vendor ?? firstProvider) === vendor;
  const unread = reading.unread ?? new Set<string>();
  const changes = new Map<string, boolean>();
  // held not connected, absent from the vendor's not-connected answer: connected again
  for (const device of heldNotConnected) {
    if (!ours(device) || device.status.connected || unread.has(device.devicesn)) continue;
    if (!reading.notConnected.has(device.devicesn)) changes.set(device.devicesn, true);
  }
  // listed not connected, held connected: disconnected
  for (const device of listed) {
    if (!ours(device) || !device.status.connected || unread.has(device.devicesn)) continue;
    if (reading.notConnected.has(device.devicesn)) changes.set(device.devicesn, false);
  }
  return [...changes].map(([devicesn, connected]) => ({ devicesn, connected })).sort((a, b) => (a.devicesn < b.devicesn ? -1 : a.devicesn > b.devicesn ? 1 : 0));
};

/** The serial numbers of a reading worth looking up in the table: not connected, and not among those already held so. */
export const toLookUp = (reading: StatusReading, heldNotConnected: readonly StoredDevice[]): string[] => {
  const held = new Set(heldNotConnected.map((device) => device.devicesn));
  return [...reading.notConnected].filter((serial) => !held.has(serial)).sort();
};
