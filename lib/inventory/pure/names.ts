import { oversizedField } from '#lib/store/placeKeys';
import type { ProviderDevice } from '#lib/devices/types';

/** Lone surrogates (not Unicode text) and control characters (C0, DEL, C1): never part of a name. */
const UNFIT = /[\p{Cs}\p{Cc}]/u;

/** A device field that cannot be stored or become part of a key. */
interface SkippedDevice {
  devicesn: string;
  field: string;
}

const FIELDS: ReadonlyArray<readonly [string, (device: ProviderDevice) => string]> = [
  ['devicesn', (d) => d.devicesn],
  ['deviceid', (d) => d.deviceid],
  ['devicemodel', (d) => d.devicemodel],
  ['status.inCallStatus', (d) => d.status.inCallStatus],
  ['details.region', (d) => d.details.region],
  ['details.location', (d) => d.details.location],
  ['details.room', (d) => d.details.room],
];

/**
 * The first field of a provider's device that holds a lone surrogate or a control character, or
 * else a name too long to become part of its keys.
 */
export const unfitField = (device: ProviderDevice): string | undefined => FIELDS.find(([, read]) => UNFIT.test(read(device)))?.[0] ?? oversizedField(device);

/**
 * Splits a provider's listing into the devices a sync can store and those it must skip, so one
 * malformed record never stops the rest of the fleet from syncing.
 */
export const fitDevices = (incoming: readonly ProviderDevice[]): { fit: ProviderDevice[]; skipped: SkippedDevice[] } => {
  const fit: ProviderDevice[] = [];
  const skipped: SkippedDevice[] = [];
  for (const device of incoming) {
    const field = unfitField(device);
    if (field === undefined) fit.push(device);
    else skipped.push({ devicesn: device.devicesn, field });
  }
  return { fit, skipped };
};
