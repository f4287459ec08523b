import { describe, expect, it, vi } from 'vitest';
import type { DeviceFields } from '#lib/devices/model';

// A field added to the device model, and only there: every view of a device must follow it.
vi.mock('#lib/devices/model', async (importOriginal) => {
  const model = await importOriginal<typeof import('#lib/devices/model')>();
  const added: DeviceFields = {
    firmwareChannel: {
      path: 'vendorDetails.firmwareChannel',
      type: 'text',
      from: 'provider',
      csv: 'firmwareChannel',
      element: 'firmwareChannel',
      bound: { kind: 'text', max: 16 },
    },
  };
  return { ...model, DEVICE_FIELDS: { ...model.DEVICE_FIELDS, ...added } };
});

const { devices } = await import('#lib/devices/repository/devices');
const { syncDevices } = await import('#lib/inventory/sync');
const { csvDocument } = await import('#lib/shared/csv');
const { DEVICE_CSV, DEVICE_CSV_COLUMNS } = await import('#lib/devices/csv');
const { toDevice } = await import('#lib/devices/types');
const { evaluate, parseConditions } = await import('#lib/watchers/conditions');
const { ELEMENTS } = await import('#lib/watchers/types');
const { boundDevice } = await import('#lib/inventory/pure/names');
import type { DeviceProvider } from '#lib/inventory/provider/index';
import type { ProviderDevice, StoredDevice } from '#lib/devices/types';

const place = { region: 'EMEA', location: 'Madrid', room: 'Sala 1' };
/** A provider device carrying the added field (the types know nothing of it: it exists at run time only). */
const reported = (devicesn: string, channel: string): ProviderDevice =>
  ({
    deviceid: `id-${devicesn}`,
    devicesn,
    devicemodel: 'Room Kit',
    status: { connected: true, inCallStatus: 'NONE' },
    details: place,
    vendor: 'webex',
    vendorDetails: { software: 'RoomOS 11', firmwareChannel: channel },
  }) as ProviderDevice;
const fixed = (fleet: ProviderDevice[]): DeviceProvider => ({ listDevices: async () => fleet, getDevice: async (sn) => fleet.find((d) => d.devicesn === sn) });
const channelOf = (device: StoredDevice | undefined): unknown => (device?.vendorDetails as Record<string, unknown> | undefined)?.firmwareChannel;
/** A watcher's condition tree testing the added field, checked as the engine checks what it reads. */
const watching = (value: string) => ({ operations: parseConditions({ type: 'firmware', operatorType: 'AND', conditions: [{ element: 'firmwareChannel', operator: '==', value }] }) });

describe('a field added to the device model alone', () => {
  it('is stored by a sync and read back (item mapping and read projection)', async () => {
    await syncDevices(fixed([reported('fw-1', 'beta')]));
    expect(channelOf(await devices.get('fw-1'))).toBe('beta');
    expect(channelOf((await devices.index()).find((d) => d.devicesn === 'fw-1'))).toBe('beta');
  });

  it('is compared by the sync: a change in it alone is written, and no change writes nothing', async () => {
    await syncDevices(fixed([reported('fw-2', 'beta'), reported('fw-3', 'beta')]));
    const changed = await syncDevices(fixed([reported('fw-2', 'stable'), reported('fw-3', 'beta')]));
    expect(changed).toMatchObject({ upserted: 1, full: false, roomsRead: 1 });
    expect(channelOf((await devices.inRoom(place)).find((d) => d.devicesn === 'fw-2'))).toBe('stable');
    expect(await syncDevices(fixed([reported('fw-2', 'stable'), reported('fw-3', 'beta')]))).toMatchObject({ upserted: 0, roomsRead: 0 });
  });

  it('is bounded when a provider sends it', () => {
    const bounded = boundDevice(reported('fw-4', 'x'.repeat(40)));
    expect('device' in bounded && bounded.adjusted).toEqual(['truncated:vendorDetails.firmwareChannel']);
  });

  it('is answered and exported in the device CSV', async () => {
    await syncDevices(fixed([reported('fw-5', 'preview')]));
    const answer = toDevice(await devices.get('fw-5'));
    expect(answer.vendorDetails).toEqual({ software: 'RoomOS 11', firmwareChannel: 'preview' });
    expect(DEVICE_CSV_COLUMNS.at(-1)).toBe('firmwareChannel');
    const [header, row] = csvDocument(DEVICE_CSV, [answer]).trim().split('\r\n');
    expect(header!.split(',').at(-1)).toBe('firmwareChannel');
    expect(row!.split(',').at(-1)).toBe('preview');
  });

  it('is usable in a watcher condition, as the alarm engine evaluates it', async () => {
    await syncDevices(fixed([reported('fw-6', 'beta')]));
    const stored = await devices.get('fw-6');
    const state = { ...stored, deviceconnected: stored.status.connected };
    expect(ELEMENTS).toContain('firmwareChannel');
    expect(watching('beta').operations.conditions[0]!.element).toBe('firmwareChannel');
    expect(evaluate(watching('beta'), state)).toBe(true);
    expect(evaluate(watching('stable'), state)).toBe(false);
  });
});
