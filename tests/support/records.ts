/** Records as the store hands them to the pure planners: fixtures of the unit tests. */
import type { RoomAggregate, Severity, StoredDevice } from '#lib/devices/types';
import type { WatcherRecord } from '#lib/watchers/types';

/** The instant the fixtures are created at. */
export const T0 = '2024-06-11T10:00:00.000Z';

/** A device of EMEA / London, in `room`, with the severity of its worst open alarm if given. */
export const storedDevice = (sn: string, connected: boolean, room = 'Room 1', alarmSeverity?: Severity): StoredDevice => ({
  deviceid: `id-${sn}`,
  devicesn: sn,
  devicemodel: 'X50',
  status: { connected, inCallStatus: 'NONE' },
  details: { region: 'EMEA', location: 'London', room },
  ...(alarmSeverity ? { alarmSeverity } : {}),
});

/** An active watcher `w1` raising Major for every disconnected device, mailing ops@example.com. */
export const watcherRecord = (overrides: Partial<WatcherRecord> = {}): WatcherRecord => ({
  id: 'w1',
  user: 'ana',
  dashboard: 'd',
  service: 's',
  type: 't',
  devicesId: [],
  allDevices: true,
  severity: 2,
  operations: { type: 'device', operatorType: 'AND', conditions: [{ element: 'status.connected', operator: '==', value: 'false' }] },
  description: 'offline',
  sendEmail: true,
  emails: ['ops@example.com'],
  pendingSeconds: 0,
  active: true,
  createdAt: T0,
  updatedAt: T0,
  ...overrides,
});

/** The stored aggregate of room EMEA / London / R1: two devices, one of them online, status OK. */
export const roomAggregate = (overrides: Partial<RoomAggregate> = {}): RoomAggregate => ({
  region: 'EMEA',
  location: 'London',
  room: 'R1',
  deviceCount: 2,
  online: 1,
  offline: 1,
  roomStatus: 'OK',
  ...overrides,
});
