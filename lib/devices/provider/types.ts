import type { ProviderDevice } from '../types';

/** Where devices come from (DESIGN §6): the whole inventory, or one device's live state. */
export interface DeviceProvider {
  listDevices(): Promise<ProviderDevice[]>;
  /** `undefined` when the provider does not know the serial number. */
  getDevice(devicesn: string): Promise<ProviderDevice | undefined>;
}
