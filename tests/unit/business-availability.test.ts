import { describe, expect, it } from 'vitest';
import {
  daysIn,
  intersect,
  normalize,
  outagesOf,
  parseBusinessHours,
  roomAvailability,
  subtract,
  worstRoomsFirst,
  type BusinessHours,
  type DeviceConnectivity,
} from '#lib/rollups/pure/businessAvailability';
import { compileSchedule, openingsBetween } from '#lib/maintenance/pure/schedule';

const ms = (iso: string) => Date.parse(iso);
const hoursOf = (text: string, zone?: string): BusinessHours => {
  const parsed = parseBusinessHours(text, zone);
  if ('problems' in parsed) throw new Error(JSON.stringify(parsed.problems));
  return parsed;
};
/** A device up at the window's start that goes down and up at the given instants. */
const device = (devicesn: string, ...outages: [string, string][]): DeviceConnectivity => ({
  devicesn,
  connectedAtStart: true,
  transitions: outages.flatMap(([down, up]) => [
    { at: down, connected: false },
    { at: up, connected: true },
  ]),
});

// 2026-03-24 is a Tuesday
const TUESDAY = { from: ms('2026-03-24T00:00:00.000Z'), to: ms('2026-03-25T00:00:00.000Z') };
const OFFICE = hoursOf('Mon-Fri 08:00-18:00');

describe('business hours', () => {
  it('parses days, ranges, lists and a zone', () => {
    expect(OFFICE).toEqual({ days: [0, 1, 2, 3, 4], start: 480, end: 1080, timeZone: 'UTC' });
    expect(hoursOf('mon,wed,Fri-Sun 00:00-24:00', 'europe/berlin')).toEqual({ days: [0, 2, 4, 5, 6], start: 0, end: 1440, timeZone: 'Europe/Berlin' });
    expect(hoursOf('Sat-Mon 09:30-12:00').days).toEqual([0, 5, 6]);
  });

  it('refuses what it cannot read, naming the setting', () => {
    for (const text of ['Mon-Fri', 'Mon-Fri 18:00-08:00', 'Mon-Fry 08:00-18:00', 'Mon-Fri 8-18', 'Mon-Fri 08:00-18:00 extra', 'Mon-Fri 08:00-24:30']) {
      const parsed = parseBusinessHours(text);
      expect('problems' in parsed && parsed.problems[0]!.field, text).toBe('BUSINESS_HOURS');
    }
    const zone = parseBusinessHours('Mon-Fri 08:00-18:00', 'Mars/Olympus');
    expect(zone).toEqual({ problems: [{ field: 'BUSINESS_TIME_ZONE', message: 'Mars/Olympus is not an IANA time zone' }] });
  });
});

describe('intervals', () => {
  it('normalize, intersect and subtract sorted disjoint lists', () => {
    const a = normalize([{ start: 5, end: 9 }, { start: 0, end: 3 }, { start: 3, end: 4 }, { start: 7, end: 7 }]);
    expect(a).toEqual([{ start: 0, end: 4 }, { start: 5, end: 9 }]);
    expect(intersect(a, [{ start: 2, end: 6 }, { start: 8, end: 20 }])).toEqual([{ start: 2, end: 4 }, { start: 5, end: 6 }, { start: 8, end: 9 }]);
    expect(subtract(a, [{ start: 1, end: 2 }, { start: 3, end: 6 }, { start: 8, end: 20 }])).toEqual([{ start: 0, end: 1 }, { start: 2, end: 3 }, { start: 6, end: 8 }]);
  });
});

describe('outages', () => {
  it('drops outages shorter than MIN_OUTAGE_SECONDS (120 by default), keeps the rest', () => {
    const d = device('sn', ['2026-03-24T03:00:00.000Z', '2026-03-24T03:00:40.000Z'], ['2026-03-24T10:00:00.000Z', '2026-03-24T11:00:00.000Z']);
    expect(outagesOf(d, TUESDAY.from, TUESDAY.to)).toEqual([{ start: ms('2026-03-24T10:00:00.000Z'), end: ms('2026-03-24T11:00:00.000Z') }]);
    expect(outagesOf(d, TUESDAY.from, TUESDAY.to, 0)).toHaveLength(2);
    expect(outagesOf(d, TUESDAY.from, TUESDAY.to, 3600)).toHaveLength(1);
    expect(outagesOf(d, TUESDAY.from, TUESDAY.to, 3601)).toHaveLength(0);
  });

  it('counts a device down at the start from the start, and one still down up to the end', () => {
    const d: DeviceConnectivity = {
      devicesn: 'sn',
      connectedAtStart: false,
      transitions: [
        { at: '2026-03-24T23:00:00.000Z', connected: false },
        { at: '2026-03-24T01:00:00.000Z', connected: true },
      ],
    };
    expect(outagesOf(d, TUESDAY.from, TUESDAY.to)).toEqual([
      { start: TUESDAY.from, end: ms('2026-03-24T01:00:00.000Z') },
      { start: ms('2026-03-24T23:00:00.000Z'), end: TUESDAY.to },
    ]);
  });
});

describe('room availability', () => {
  const blipAndOutage = device('sn', ['2026-03-24T03:00:00.000Z', '2026-03-24T03:00:40.000Z'], ['2026-03-24T10:00:00.000Z', '2026-03-24T11:00:00.000Z']);

  it('a 40 s blip at 03:00 does not count, a 1 h outage at 10:00 on a weekday does, and that day is unhealthy', () => {
    const business = roomAvailability([blipAndOutage], { ...TUESDAY, hours: OFFICE });
    expect(business).toEqual({ availability: 0.9, outageMinutes: 60, observedMinutes: 600, outageDeviceMinutes: 60, unhealthyDays: ['2026-03-24'], deviceCount: 1 });
    // the blip alone: nothing
    const blip = device('sn', ['2026-03-24T03:00:00.000Z', '2026-03-24T03:00:40.000Z']);
    expect(roomAvailability([blip], { ...TUESDAY, hours: OFFICE })).toMatchObject({ availability: 1, outageMinutes: 0, unhealthyDays: [] });
    expect(roomAvailability([blip], TUESDAY)).toMatchObject({ availability: 1, outageMinutes: 0, unhealthyDays: [] });
    // 24 h: the hour over the whole day, still unhealthy
    expect(roomAvailability([blipAndOutage], TUESDAY)).toMatchObject({ availability: 0.9583, outageMinutes: 60, unhealthyDays: ['2026-03-24'] });
    // with every blip counted, the night one would
    expect(roomAvailability([blipAndOutage], { ...TUESDAY, minOutageSeconds: 0 }).outageMinutes).toBe(60.7);
  });

  it('an outage outside business hours or on a weekend does not count', () => {
    const night = device('sn', ['2026-03-24T19:00:00.000Z', '2026-03-24T23:00:00.000Z']);
    expect(roomAvailability([night], { ...TUESDAY, hours: OFFICE })).toMatchObject({ availability: 1, outageMinutes: 0, unhealthyDays: [] });
    const saturday = device('sn', ['2026-03-28T10:00:00.000Z', '2026-03-28T12:00:00.000Z']);
    const week = { from: ms('2026-03-23T00:00:00.000Z'), to: ms('2026-03-30T00:00:00.000Z') };
    expect(roomAvailability([saturday], { ...week, hours: OFFICE })).toMatchObject({ availability: 1, unhealthyDays: [] });
    expect(roomAvailability([saturday], week)).toMatchObject({ outageMinutes: 120, unhealthyDays: ['2026-03-28'] });
  });

  it('20 minutes is still healthy, 21 is not', () => {
    const twenty = device('sn', ['2026-03-24T10:00:00.000Z', '2026-03-24T10:20:00.000Z']);
    const more = device('sn', ['2026-03-24T10:00:00.000Z', '2026-03-24T10:21:00.000Z']);
    expect(roomAvailability([twenty], { ...TUESDAY, hours: OFFICE }).unhealthyDays).toEqual([]);
    expect(roomAvailability([more], { ...TUESDAY, hours: OFFICE }).unhealthyDays).toEqual(['2026-03-24']);
  });

  it('counts device-time for availability and the union of outages for the room', () => {
    const a = device('a', ['2026-03-24T10:00:00.000Z', '2026-03-24T10:15:00.000Z']);
    const b = device('b', ['2026-03-24T10:10:00.000Z', '2026-03-24T10:18:00.000Z']);
    const room = roomAvailability([a, b], { ...TUESDAY, hours: OFFICE });
    // 23 device-minutes of 1200; 18 minutes in which the room had a device out: not unhealthy
    expect(room).toEqual({ availability: 0.9808, outageMinutes: 18, observedMinutes: 1200, outageDeviceMinutes: 23, unhealthyDays: [], deviceCount: 2 });
  });

  it('leaves maintenance openings out of both the hours and the outage', () => {
    const maintenance = [{ start: ms('2026-03-24T09:30:00.000Z'), end: ms('2026-03-24T10:45:00.000Z') }];
    const room = roomAvailability([blipAndOutage], { ...TUESDAY, hours: OFFICE, maintenance });
    // 15 minutes of outage out of 600 - 75 observed: 0.9714, and 15 minutes is a healthy day
    expect(room).toEqual({ availability: 0.9714, outageMinutes: 15, observedMinutes: 525, outageDeviceMinutes: 15, unhealthyDays: [], deviceCount: 1 });
  });

  it('leaves the maintenance of one device out of that device only', () => {
    const other = device('other');
    const maintenance = [{ start: ms('2026-03-24T09:30:00.000Z'), end: ms('2026-03-24T10:45:00.000Z') }];
    const room = roomAvailability([{ ...blipAndOutage, maintenance }, other], { ...TUESDAY, hours: OFFICE });
    // 15 device-minutes out of 525 + 600
    expect(room).toEqual({ availability: 0.9867, outageMinutes: 15, observedMinutes: 1125, outageDeviceMinutes: 15, unhealthyDays: [], deviceCount: 2 });
  });

  it('takes the openings a maintenance schedule gives (openingsBetween)', () => {
    const compiled = compileSchedule({ days: ['TU'], start: '09:00', durationMinutes: 180 }, {}, 'UTC');
    if (!('schedule' in compiled)) throw new Error('schedule');
    const maintenance = openingsBetween(compiled.schedule, TUESDAY.from, TUESDAY.to);
    expect(roomAvailability([blipAndOutage], { ...TUESDAY, hours: OFFICE, maintenance })).toEqual({
      availability: 1,
      outageMinutes: 0,
      observedMinutes: 420,
      outageDeviceMinutes: 0,
      unhealthyDays: [],
      deviceCount: 1,
    });
  });

  it('follows the zone across a DST change (Europe/Berlin, 29 March 2026)', () => {
    const berlin = hoursOf('Mon-Fri 08:00-18:00', 'Europe/Berlin');
    const window = { from: ms('2026-03-27T00:00:00.000Z'), to: ms('2026-03-31T00:00:00.000Z') };
    // 06:00Z is 07:00 in Berlin on Friday (CET, before opening) but 08:00 on Monday (CEST, open)
    const d = device('sn', ['2026-03-27T06:00:00.000Z', '2026-03-27T06:30:00.000Z'], ['2026-03-30T06:00:00.000Z', '2026-03-30T06:30:00.000Z']);
    // Friday 07:00Z-17:00Z and Monday 06:00Z-16:00Z are open: 1200 minutes, 30 of them out
    expect(roomAvailability([d], { ...window, hours: berlin })).toEqual({ availability: 0.975, outageMinutes: 30, observedMinutes: 1200, outageDeviceMinutes: 30, unhealthyDays: ['2026-03-30'], deviceCount: 1 });
    // the local day of the change has 23 hours
    const days = daysIn(window.from, window.to, 'Europe/Berlin');
    const sunday = days.find((day) => day.date === '2026-03-29')!.span!;
    expect((sunday.end - sunday.start) / 3_600_000).toBe(23);
    expect(days.map((day) => day.date)).toEqual(['2026-03-27', '2026-03-28', '2026-03-29', '2026-03-30', '2026-03-31']);
    const monday = daysIn(window.from, window.to, 'Europe/Berlin', berlin).find((day) => day.date === '2026-03-30')!.span!;
    expect(new Date(monday.start).toISOString()).toBe('2026-03-30T06:00:00.000Z');
  });

  it('follows the zone back to winter time (Europe/Berlin, 25 October 2026): a 25-hour day, 08:00 at 07:00Z after it', () => {
    const window = { from: ms('2026-10-23T00:00:00.000Z'), to: ms('2026-10-27T00:00:00.000Z') };
    const days = daysIn(window.from, window.to, 'Europe/Berlin');
    const sunday = days.find((day) => day.date === '2026-10-25')!.span!;
    expect((sunday.end - sunday.start) / 3_600_000).toBe(25);
    const berlin = hoursOf('Mon-Fri 08:00-18:00', 'Europe/Berlin');
    const monday = daysIn(window.from, window.to, 'Europe/Berlin', berlin).find((day) => day.date === '2026-10-26')!.span!;
    expect([new Date(monday.start).toISOString(), new Date(monday.end).toISOString()]).toEqual(['2026-10-26T07:00:00.000Z', '2026-10-26T17:00:00.000Z']);
    // 06:30Z-07:30Z: 07:30 local on Friday (CEST, 30 minutes open) and 07:30 local on Monday (CET, 30 minutes open)
    const d = device('sn', ['2026-10-23T06:00:00.000Z', '2026-10-23T06:45:00.000Z'], ['2026-10-26T06:30:00.000Z', '2026-10-26T07:30:00.000Z']);
    expect(roomAvailability([d], { ...window, hours: berlin })).toMatchObject({ outageMinutes: 75, unhealthyDays: ['2026-10-23', '2026-10-26'] });
    // 24 h in the zone: the same outages fall on the same local days
    expect(roomAvailability([d], { ...window, timeZone: 'Europe/Berlin' })).toMatchObject({ outageMinutes: 105, unhealthyDays: ['2026-10-23', '2026-10-26'] });
  });

  it('counts unhealthy days over a 90-day window and ignores time before a device was first observed', () => {
    const from = ms('2026-01-01T00:00:00.000Z');
    const to = from + 90 * 86_400_000;
    const outages: [string, string][] = [];
    // every Monday from 12 January: 30 minutes out at 10:00 (12 Mondays in the window)
    for (let day = ms('2026-01-12T10:00:00.000Z'); day < to; day += 7 * 86_400_000) outages.push([new Date(day).toISOString(), new Date(day + 30 * 60_000).toISOString()]);
    const room = roomAvailability([device('sn', ...outages)], { from, to, hours: OFFICE });
    expect(room.unhealthyDays).toHaveLength(outages.length);
    expect(room.unhealthyDays[0]).toBe('2026-01-12');
    const late = { ...device('sn', ...outages), observedFrom: ms('2026-03-01T00:00:00.000Z'), connectedAtStart: true };
    expect(roomAvailability([late], { from, to, hours: OFFICE }).unhealthyDays.every((day) => day >= '2026-03-01')).toBe(true);
  });

  it('sorts the worst rooms first', () => {
    const room = (name: string, availability: number, unhealthy: number, outageMinutes: number) => ({
      region: 'R',
      location: 'L',
      room: name,
      availability,
      unhealthyDays: new Array<string>(unhealthy).fill('d'),
      outageMinutes,
    });
    const sorted = [room('e', 1, 0, 0), room('d', 0.9, 1, 60), room('c', 0.9, 2, 30), room('b', 0.9, 2, 45), room('a', 1, 0, 0)].sort(worstRoomsFirst);
    expect(sorted.map((r) => r.room)).toEqual(['b', 'c', 'd', 'a', 'e']);
  });
});
