import { describe, expect, it } from 'vitest';
import { historyExpiry } from '#lib/shared/retention';
import * as connectivity from '#lib/devices/repository/connectivity';
import { roomAvailability } from '#lib/devices/availability';
import { businessAvailabilityIn, businessHoursSetting, minOutageSetting } from '#lib/devices/businessAvailability';
import type { DeviceProvider } from '#lib/inventory/provider/index';
import { syncDevices } from '#lib/inventory/sync';
import { createWindow, removeWindow } from '#lib/maintenance/service';
import { parseBusinessHours, type BusinessHours } from '#lib/rollups/pure/businessAvailability';
import type { ProviderDevice } from '#lib/devices/types';

let n = 0;
const unique = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${++n}`;
const device = (region: string, sn: string, room: string): ProviderDevice => ({
  deviceid: `id-${sn}`,
  devicesn: sn,
  devicemodel: 'X50',
  status: { connected: true, inCallStatus: 'NONE' },
  details: { region, location: 'Paris', room },
});
const fixed = (fleet: ProviderDevice[]): DeviceProvider => ({
  listDevices: async () => fleet,
  getDevice: async (sn) => fleet.find((d) => d.devicesn === sn),
});
const OFFICE = parseBusinessHours('Mon-Fri 08:00-18:00') as BusinessHours;
// a Tuesday in the past, within the retention
const DAY = '2026-11-17';
const at = (time: string) => `${DAY}T${time}.000Z`;
const WINDOW = { from: at('00:00:00'), to: '2026-11-18T00:00:00.000Z' };

/** A region of two rooms: A blips 40 s at 03:00 and is out 1 h at 10:00; B stays up. */
const seed = async () => {
  const region = unique('BH');
  const fleet = [device(region, `${region}-a`, 'A'), device(region, `${region}-b`, 'B')];
  await syncDevices(fixed(fleet));
  const flips: [string, string, boolean][] = [
    [`${region}-a`, at('00:00:00'), true],
    [`${region}-b`, at('00:00:00'), true],
    [`${region}-a`, at('03:00:00'), false],
    [`${region}-a`, at('03:00:40'), true],
    [`${region}-a`, at('10:00:00'), false],
    [`${region}-a`, at('11:00:00'), true],
  ];
  await connectivity.record(
    flips.map(([devicesn, when, connected]) => ({ devicesn, at: when, connected, inCallStatus: 'NONE' })),
    historyExpiry,
  );
  return region;
};

describe('availability over business hours (from connectivity changes)', () => {
  it('counts the 1 h day outage and not the 40 s night blip, worst room first, unhealthy days when asked', async () => {
    const region = await seed();
    const answer = await businessAvailabilityIn({ region }, WINDOW, { hours: OFFICE, unhealthyDays: 30 });
    expect(answer).toEqual({
      ...WINDOW,
      hours: 'business',
      rooms: [
        { region, location: 'Paris', room: 'A', availability: 0.9, deviceCount: 1, outageMinutes: 60, unhealthyDays: 1 },
        { region, location: 'Paris', room: 'B', availability: 1, deviceCount: 1, outageMinutes: 0, unhealthyDays: 0 },
      ],
      overall: 0.95,
    });
    const allDay = await businessAvailabilityIn({ region }, WINDOW, { hours: undefined });
    expect(allDay.rooms[0]).toEqual({ region, location: 'Paris', room: 'A', availability: 0.9583, deviceCount: 1, outageMinutes: 60 });
    expect(allDay.hours).toBe('24h');
    // within a caller's scope: another region's caller sees none of these rooms
    expect((await businessAvailabilityIn({ region }, WINDOW, { hours: OFFICE }, [{ region: 'elsewhere' }])).rooms).toEqual([]);
    expect((await businessAvailabilityIn({}, WINDOW, { hours: OFFICE }, [{ region, location: 'Paris' }])).rooms.map((r) => r.room)).toEqual(['A', 'B']);
  });

  it('leaves a maintenance window of the room out', async () => {
    const region = await seed();
    const window = await createWindow({ matchers: { region, room: 'A' }, schedule: { days: ['TU'], start: '09:30', durationMinutes: 75, timeZone: 'UTC' }, comment: 'firmware' }, 'ops');
    try {
      const answer = await businessAvailabilityIn({ region, room: 'A' }, WINDOW, { hours: OFFICE, unhealthyDays: 30 });
      expect(answer.rooms).toEqual([{ region, location: 'Paris', room: 'A', availability: 0.9714, deviceCount: 1, outageMinutes: 15, unhealthyDays: 0 }]);
    } finally {
      await removeWindow(window.id);
    }
  });

  it('the route keeps 24 h from the rollups unless business hours are configured or unhealthy days asked', async () => {
    const region = await seed();
    const body = { regionName: region, locationName: 'all', roomName: 'all', ...WINDOW };
    const before = process.env.BUSINESS_HOURS;
    try {
      delete process.env.BUSINESS_HOURS;
      expect(businessHoursSetting()).toBeUndefined();
      const plain = await roomAvailability(body);
      expect('hours' in plain).toBe(false);
      await expect(roomAvailability({ ...body, hours: 'business' })).rejects.toMatchObject({ message: 'no business hours are configured (BUSINESS_HOURS): ask hours 24h' });
      expect((await roomAvailability({ ...body, unhealthyDays: 90 })).rooms[0]).toMatchObject({ room: 'A', unhealthyDays: 1, outageMinutes: 60 });
      process.env.BUSINESS_HOURS = 'Mon-Fri 08:00-18:00';
      const business = await roomAvailability(body);
      expect(business).toMatchObject({ hours: 'business', rooms: [{ room: 'A', availability: 0.9 }, { room: 'B', availability: 1 }] });
      expect('hours' in (await roomAvailability({ ...body, hours: '24h' }))).toBe(false);
    } finally {
      if (before === undefined) delete process.env.BUSINESS_HOURS;
      else process.env.BUSINESS_HOURS = before;
    }
  });

  it('reads MIN_OUTAGE_SECONDS and BUSINESS_TIME_ZONE, and refuses a setting it cannot read', () => {
    expect(minOutageSetting({})).toBe(120);
    expect(minOutageSetting({ MIN_OUTAGE_SECONDS: '30' })).toBe(30);
    expect(minOutageSetting({ MIN_OUTAGE_SECONDS: 'x' })).toBe(120);
    expect(businessHoursSetting({ BUSINESS_HOURS: 'Mon-Fri 08:00-18:00', BUSINESS_TIME_ZONE: 'Europe/Paris' })?.timeZone).toBe('Europe/Paris');
    expect(() => businessHoursSetting({ BUSINESS_HOURS: 'weekdays' })).toThrow(/BUSINESS_HOURS/);
  });
});
