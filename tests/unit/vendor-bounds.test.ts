import { describe, expect, it } from 'vitest';
import type { ProviderDevice } from '#lib/devices/types';
import { boundDevice, FIELD_BOUNDS, fitDevices, MAX_ERROR_CODES, stripInvisible, truncate } from '#lib/inventory/pure/names';

const device = (over: Partial<ProviderDevice> = {}, details: Partial<ProviderDevice['details']> = {}): ProviderDevice => ({
  deviceid: 'id-1',
  devicesn: 'SN1',
  devicemodel: 'Room Kit',
  status: { connected: true, inCallStatus: 'NONE' },
  details: { region: 'EMEA', location: 'Berlin', room: 'Room 1', ...details },
  vendor: 'webex',
  vendorDetails: { connectionDetail: 'connected', software: 'RoomOS 11', errorCodes: ['a'], lastSeen: '2026-11-01T10:00:00.000Z', plannedMaintenance: 'off' },
  ...over,
});

const stored = (over: Partial<ProviderDevice> = {}, details: Partial<ProviderDevice['details']> = {}) => {
  const bounded = boundDevice(device(over, details));
  if ('skip' in bounded) throw new Error(`skipped: ${bounded.skip}`);
  return bounded;
};

describe('vendor field bounds', () => {
  it('keeps a device within every bound as it is, unadjusted', () => {
    expect(boundDevice(device())).toEqual({ device: device(), adjusted: [] });
  });

  it('cuts a 450 KB software to its bound, ending in an ellipsis, and counts it', () => {
    const { device: out, adjusted } = stored({ vendorDetails: { software: 'x'.repeat(450_000) } });
    expect(out.vendorDetails?.software).toHaveLength(FIELD_BOUNDS['vendorDetails.software'].max);
    expect(out.vendorDetails?.software?.endsWith('…')).toBe(true);
    expect(adjusted).toEqual(['truncated:vendorDetails.software']);
    // bounded twice is bounded once: the merged listing is bounded again without a change
    expect(boundDevice(out)).toEqual({ device: out, adjusted: [] });
  });

  it('cuts a 10 KB model, and never splits a character in two', () => {
    expect(stored({ devicemodel: 'm'.repeat(10_000) }).device.devicemodel).toHaveLength(256);
    const emoji = truncate('🎥'.repeat(300), 256);
    expect([...emoji]).toHaveLength(256);
    expect(emoji).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])/);
  });

  it('keeps at most 32 error codes, each cut to 128 characters, counted once per device', () => {
    const codes = Array.from({ length: 100 }, (_, i) => `${i}`.padEnd(500, 'e'));
    const { device: out, adjusted } = stored({ vendorDetails: { errorCodes: codes } });
    expect(out.vendorDetails?.errorCodes).toHaveLength(MAX_ERROR_CODES);
    expect(out.vendorDetails?.errorCodes?.every((code) => [...code].length === 128)).toBe(true);
    expect(adjusted).toEqual(['truncated:vendorDetails.errorCodes']);
  });

  it('drops a lastSeen that is no time, and cleans control characters out of descriptive text', () => {
    const { device: out, adjusted } = stored({ status: { connected: false, inCallStatus: 'NONE' }, vendorDetails: { lastSeen: 'yesterday', connectionDetail: 'off\r\nline' } });
    expect(out.vendorDetails).not.toHaveProperty('lastSeen');
    expect(out.vendorDetails?.connectionDetail).toBe('off line');
    expect(adjusted).toEqual(['cleaned:vendorDetails.connectionDetail', 'dropped:vendorDetails.lastSeen']);
  });

  it('skips a device whose key field is unusable, by reason and field', () => {
    expect(boundDevice(device({ devicesn: '' }))).toEqual({ skip: 'empty:devicesn', field: 'devicesn' });
    expect(boundDevice(device({ devicesn: 'S'.repeat(257) }))).toEqual({ skip: 'tooLong:devicesn', field: 'devicesn' });
    expect(boundDevice(device({ deviceid: 'i'.repeat(10_000) }))).toEqual({ skip: 'tooLong:deviceid', field: 'deviceid' });
    expect(boundDevice(device({ devicesn: 'SN\u200b1' }))).toEqual({ skip: 'unfit:devicesn', field: 'devicesn' });
    expect(boundDevice(device({ vendorRef: 'r\u0000' }))).toEqual({ skip: 'unfit:vendorRef', field: 'vendorRef' });
    expect(boundDevice(device({}, { room: 'Lobby\u0007' }))).toEqual({ skip: 'unfit:details.room', field: 'details.room' });
    expect(boundDevice(device({}, { room: '\u200b\u200d' }))).toEqual({ skip: 'empty:details.room', field: 'details.room' });
    // 100 emoji are 1,200 bytes URI-encoded: more than the room's sort key holds
    expect(boundDevice(device({}, { room: '🎥'.repeat(100) }))).toEqual({ skip: 'tooLong:details.room', field: 'details.room' });
  });
});

describe('invisible characters in vendor names', () => {
  it('strips bidirectional controls and zero-width characters from place names, and counts it', () => {
    const { device: out, adjusted } = stored({}, { region: '\u202eAEME', location: 'Ber\u200blin\ufeff', room: '\u2066Room\u2069 \u200e1\u061c' });
    expect(out.details).toEqual({ region: 'AEME', location: 'Berlin', room: 'Room 1' });
    expect(adjusted).toEqual(['stripped:details.region', 'stripped:details.location', 'stripped:details.room']);
  });

  it('strips them from descriptive text too', () => {
    expect(stored({ devicemodel: 'Room\u202e Kit' }).device.devicemodel).toBe('Room Kit');
  });

  it('covers the listed characters: the default-ignorable code points and the line separators', () => {
    const listed = [0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069, 0x200e, 0x200f, 0x061c, 0x200b, 0x200c, 0x200d, 0x2060, 0xfeff];
    const otherInvisible = [0x00ad, 0x180e, 0x2062, 0x034f, 0x3164, 0xe0041, 0x2028, 0x2029];
    expect(stripInvisible(`Room${String.fromCodePoint(...otherInvisible)} 3`)).toBe('Room 3');
    expect(stripInvisible(String.fromCodePoint(...listed))).toBe('');
    expect(stripInvisible('Café ü 会议室 🎥 -_.')).toBe('Café ü 会议室 🎥 -_.');
  });
});

describe('a place named all', () => {
  it('is renamed after its vendor, whatever level, and counted', () => {
    const { device: out, adjusted } = stored({ vendor: 'zoom' }, { region: 'all', location: 'all', room: 'all' });
    expect(out.details).toEqual({ region: 'all (zoom)', location: 'all (zoom)', room: 'all (zoom)' });
    expect(adjusted).toEqual(['renamed:details.region', 'renamed:details.location', 'renamed:details.room']);
  });

  it('only the exact name: filters read `all` case-sensitively', () => {
    expect(stored({}, { location: 'All' }).device.details.location).toBe('All');
    expect(stored({}, { location: 'all\u200b' }).device.details.location).toBe('all (webex)');
  });

  it('is counted through fitDevices by the caller, with the skips', () => {
    const counts: string[] = [];
    const { fit, skipped } = fitDevices([device({}, { location: 'all' }), device({ devicesn: '' })], (kind, reason) => counts.push(`${kind} ${reason}`));
    expect(fit.map((d) => d.details.location)).toEqual(['all (webex)']);
    expect(skipped).toEqual([{ devicesn: '', field: 'devicesn', reason: 'empty:devicesn' }]);
    expect(counts).toEqual(['adjusted renamed:details.location', 'skipped empty:devicesn']);
  });
});
