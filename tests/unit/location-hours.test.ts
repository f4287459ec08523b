import { describe, expect, it } from 'vitest';
import { calendarOf, checkProfile } from '#lib/locations/pure/hours';
import { parseBusinessHours, roomAvailability, type BusinessHours, type DeviceConnectivity } from '#lib/rollups/pure/businessAvailability';

const ms = (iso: string) => Date.parse(iso);
const hoursOf = (text: string, zone?: string): BusinessHours => {
  const parsed = parseBusinessHours(text, zone);
  if ('problems' in parsed) throw new Error(JSON.stringify(parsed.problems));
  return parsed;
};
const down = (devicesn: string, from: string, to: string): DeviceConnectivity => ({
  devicesn,
  connectedAtStart: true,
  transitions: [
    { at: from, connected: false },
    { at: to, connected: true },
  ],
});
const profile = (fields: Partial<Parameters<typeof calendarOf>[0] & object> = {}) => ({ timeZone: 'Europe/Berlin', rooms: [], ...fields });

describe('location profiles: checks', () => {
  it('stores zones in the IANA letter case and hours trimmed', () => {
    expect(checkProfile({ timeZone: 'europe/berlin', businessHours: ' Mon-Fri 08:00-18:00 ', rooms: [{ room: 'A', timeZone: 'america/new_york' }, { room: 'B', businessHours: '24h' }] })).toEqual({
      profile: { timeZone: 'Europe/Berlin', businessHours: 'Mon-Fri 08:00-18:00', rooms: [{ room: 'A', timeZone: 'America/New_York' }, { room: 'B', businessHours: '24h' }] },
    });
  });

  it('names every bad field: hours that do not read, unknown zones, a room twice, a room naming nothing', () => {
    const checked = checkProfile({
      timeZone: 'Mars/Olympus',
      businessHours: 'weekdays',
      rooms: [{ room: 'A', businessHours: 'Mon-Fri 18:00-08:00' }, { room: 'A', timeZone: 'Nowhere/City' }, { room: 'C' }],
    });
    expect('problems' in checked && checked.problems.map((p) => p.field)).toEqual([
      'body.timeZone',
      'body.businessHours',
      'body.rooms[0].businessHours',
      'body.rooms[1].room',
      'body.rooms[1].timeZone',
      'body.rooms[2]',
    ]);
  });
});

describe("a room's calendar: room > location > fleet > none", () => {
  const fleet = { hours: hoursOf('Mon-Fri 09:00-17:00', 'UTC') };

  it('takes the room override, then the profile, then the fleet hours on the profile wall clock, else the whole day', () => {
    const berlin = profile({ businessHours: 'Mon-Fri 08:00-18:00', rooms: [{ room: 'Lab', businessHours: '24h' }, { room: 'NY', timeZone: 'America/New_York' }, { room: 'Sat', businessHours: 'Sat 10:00-14:00' }] });
    expect(calendarOf(berlin, 'Any', fleet)).toEqual({ hours: hoursOf('Mon-Fri 08:00-18:00', 'Europe/Berlin'), timeZone: 'Europe/Berlin', source: 'location' });
    expect(calendarOf(berlin, 'Lab', fleet)).toEqual({ hours: undefined, timeZone: 'Europe/Berlin', source: 'room' });
    expect(calendarOf(berlin, 'NY', fleet)).toEqual({ hours: hoursOf('Mon-Fri 08:00-18:00', 'America/New_York'), timeZone: 'America/New_York', source: 'location' });
    expect(calendarOf(berlin, 'Sat', fleet)).toEqual({ hours: hoursOf('Sat 10:00-14:00', 'Europe/Berlin'), timeZone: 'Europe/Berlin', source: 'room' });
    expect(calendarOf(profile(), 'Any', fleet)).toEqual({ hours: hoursOf('Mon-Fri 09:00-17:00', 'Europe/Berlin'), timeZone: 'Europe/Berlin', source: 'fleet' });
    expect(calendarOf(undefined, 'Any', fleet)).toEqual({ hours: fleet.hours, timeZone: 'UTC', source: 'fleet' });
    expect(calendarOf(profile(), 'Any', {})).toEqual({ hours: undefined, timeZone: 'Europe/Berlin', source: 'none' });
    expect(calendarOf(undefined, 'Any', { timeZone: 'Asia/Tokyo' })).toEqual({ hours: undefined, timeZone: 'Asia/Tokyo', source: 'none' });
  });
});

describe('rooms in their own zones', () => {
  // 2026-03-24 is a Tuesday; Berlin is UTC+1 (CET), New York UTC-4 (EDT since March 8)
  const TUESDAY = { from: ms('2026-03-24T00:00:00.000Z'), to: ms('2026-03-25T12:00:00.000Z') };
  const office = 'Mon-Fri 08:00-18:00';
  const berlin = calendarOf(profile({ businessHours: office }), 'Berlin room', {});
  const newYork = calendarOf(profile({ businessHours: office, rooms: [{ room: 'NY room', timeZone: 'America/New_York' }] }), 'NY room', {});
  // 09:00-10:00 UTC is 10:00-11:00 in Berlin and 05:00-06:00 in New York
  const morningUtc = down('sn', '2026-03-24T09:00:00.000Z', '2026-03-24T10:00:00.000Z');
  // 19:00-20:00 UTC is 20:00-21:00 in Berlin and 15:00-16:00 in New York
  const eveningUtc = down('sn', '2026-03-24T19:00:00.000Z', '2026-03-24T20:00:00.000Z');

  it('counts an outage in Berlin office hours for the Berlin room only, one in New York office hours for the New York room only', () => {
    const count = (device: DeviceConnectivity, calendar: typeof berlin) => roomAvailability([device], { ...TUESDAY, hours: calendar.hours, timeZone: calendar.timeZone });
    expect(count(morningUtc, berlin)).toMatchObject({ outageMinutes: 60, unhealthyDays: ['2026-03-24'] });
    expect(count(morningUtc, newYork)).toMatchObject({ outageMinutes: 0, availability: 1, unhealthyDays: [] });
    expect(count(eveningUtc, berlin)).toMatchObject({ outageMinutes: 0, availability: 1, unhealthyDays: [] });
    expect(count(eveningUtc, newYork)).toMatchObject({ outageMinutes: 60, unhealthyDays: ['2026-03-24'] });
    // each room's business day is ten hours of its own clock
    expect(count(eveningUtc, newYork).observedMinutes).toBe(600);
  });

  it("dates unhealthy days on the room's own calendar", () => {
    // 03:00-04:00 UTC on Wednesday is Tuesday 23:00-24:00 in New York: a Tuesday outage there, a Wednesday one in Berlin
    const lateNight = down('sn', '2026-03-25T03:00:00.000Z', '2026-03-25T04:00:00.000Z');
    const allDay = (timeZone: string) => roomAvailability([lateNight], { ...TUESDAY, timeZone });
    expect(allDay('America/New_York').unhealthyDays).toEqual(['2026-03-24']);
    expect(allDay('Europe/Berlin').unhealthyDays).toEqual(['2026-03-25']);
  });
});
