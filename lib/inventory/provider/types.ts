import type { ProviderDevice, StoredDevice } from '#lib/devices/types';

/** What the sync knows when it asks a provider for its listing. */
export interface ListingBounds {
  /** Devices we hold from this provider (its last successful listing). */
  fleet?: number;
  /** Listings of this provider in a row that failed on a paging bound. */
  pagingFailures?: number;
}

/**
 * What one provider call cost and what it could not read, filled in by the provider as it goes
 * (so a call that fails still tells how far it got). Shown per provider in `GET /providers`.
 */
export interface ProviderMeter {
  /** Vendor requests sent (token requests included). */
  requests: number;
  /** Answers that asked us to wait (429, 423, 502, 503, 504) and were waited out. */
  throttledWaits: number;
  waitedMs: number;
  /** Records skipped, by reason (`noSerial`, `personal`, `malformed`, `tooLong:<field>`, ...). */
  skipped: Record<string, number>;
  /** Records stored with a field changed to fit its bound, by change (`truncated:vendorDetails.software`, ...). */
  adjusted: Record<string, number>;
  /** Serial numbers of records that could not be read: their stored devices are kept as they are. */
  unreadable: string[];
}

export const newMeter = (): ProviderMeter => ({ requests: 0, throttledWaits: 0, waitedMs: 0, skipped: {}, adjusted: {}, unreadable: [] });

export const countSkipped = (meter: ProviderMeter | undefined, reason: string): void => {
  if (meter) meter.skipped[reason] = (meter.skipped[reason] ?? 0) + 1;
};

/**
 * What a status poll read of a vendor: the serial numbers it says are not connected now. Every
 * device of the vendor we hold not in `notConnected` is connected, except those in `unread` (the
 * poll could not tell: they stay as stored until the next sync or poll).
 */
export interface StatusReading {
  notConnected: ReadonlySet<string>;
  unread?: ReadonlySet<string>;
}

/** Where devices come from (DESIGN §6): the whole inventory, or one device's live state. */
export interface DeviceProvider {
  /** `bounds`: what the sync knows of this provider's fleet, from which its listings' page budget derives (paging.ts). */
  listDevices(meter?: ProviderMeter, bounds?: ListingBounds): Promise<ProviderDevice[]>;
  /**
   * `undefined` when the provider does not know the serial number. `stored` is the device as
   * stored, when it is (a vendor finds it by the handle it stored: `vendorRef`).
   */
  getDevice(devicesn: string, stored?: StoredDevice, meter?: ProviderMeter): Promise<ProviderDevice | undefined>;
  /**
   * A cheap status poll: only what is not connected, by the vendor's own filter (absent: the
   * provider has none and is reconciled by its syncs alone). `held`: the devices of this vendor we
   * hold not connected, for a vendor that answers by room (Zoom) to read only the rooms that differ.
   * `bounds`: what the last sync knows of its fleet (a vendor may choose its cheaper way by it).
   */
  pollStatus?(held: readonly StoredDevice[], meter?: ProviderMeter, bounds?: ListingBounds): Promise<StatusReading>;
}
