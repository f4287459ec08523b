/** Fixtures of the alarm-engine tests: a small fleet, its provider and watchers. */
import type { DeviceProvider } from '#lib/inventory/provider/index';
import type { ProviderDevice } from '#lib/devices/types';
import type { WatcherInput } from '#lib/watchers/types';

// Each test uses its own region, watcher and mail address: assertions see only their own data.
let n = 0;
export const unique = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${++n}`;

/** A device of `room` in `location` of `region`. */
export const placed = (region: string, location: string, sn: string, room: string, connected: boolean): ProviderDevice => ({
  deviceid: `id-${sn}`,
  devicesn: sn,
  devicemodel: 'X50',
  status: { connected, inCallStatus: 'NONE' },
  details: { region, location, room },
});

/** A device of `room` in London. */
export const device = (region: string, sn: string, room: string, connected: boolean): ProviderDevice => placed(region, 'London', sn, room, connected);

/** A provider answering whatever `fleet()` holds at the time of the call. */
export const fixed = (fleet: () => ProviderDevice[]): DeviceProvider => ({
  listDevices: async () => fleet(),
  getDevice: async (sn) => fleet().find((d) => d.devicesn === sn),
});

const disconnected = { element: 'status.connected', operator: '==', value: 'false' } as const;

/** A watcher's operations that hold when any of `conditions` holds. */
export const anyOf = <const C extends object>(...conditions: C[]) => ({ type: 'device', operatorType: 'OR', conditions }) as const;

/** A valid watcher body (POST /watcher): Major for every disconnected device, no mail. */
export const watcherInput = (overrides: Partial<WatcherInput> = {}): WatcherInput => ({
  user: 'ops',
  dashboard: 'ops',
  service: 'video',
  type: 'offline',
  allDevices: true,
  severity: 2,
  operations: { type: 'device', operatorType: 'AND', conditions: [disconnected] },
  sendEmail: false,
  ...overrides,
});

/** A watcher raising Major while the device `devicesn` is disconnected, mailing `email`. */
export const deviceWatcher = (devicesn: string, email: string, overrides: Partial<WatcherInput> = {}): WatcherInput =>
  watcherInput({ allDevices: false, devicesId: [devicesn], sendEmail: true, emails: [email], ...overrides });

/** A watcher raising Major for every disconnected device of `region`, mailing `email`. */
export const offlineWatcher = (region: string, email: string, overrides: Partial<WatcherInput> = {}): WatcherInput =>
  watcherInput({
    dashboard: 'd',
    service: 's',
    type: 't',
    operations: { type: 'device', operatorType: 'AND', conditions: [disconnected, { element: 'details.region', operator: '==', value: region }] },
    description: 'device offline',
    sendEmail: true,
    emails: [email],
    ...overrides,
  });
