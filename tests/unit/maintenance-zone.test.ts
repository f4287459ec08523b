import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { instantOf, localDayAt, offsetAt, timeZoneName, wallClockAt } from '#lib/shared/zone';

/** A wall-clock time written as local ms (the same date and time in UTC). */
const local = (text: string) => Date.parse(`${text}Z`);
const at = (text: string) => Date.parse(text);
const HOUR = 3_600_000;

describe('timeZoneName', () => {
  it('accepts IANA zones Intl knows, fixing the letter case', () => {
    expect(timeZoneName('Europe/Berlin')).toBe('Europe/Berlin');
    expect(timeZoneName('america/new_york')).toBe('America/New_York');
    expect(timeZoneName('UTC')).toBe('UTC');
    expect(timeZoneName('Etc/GMT+5')).toBe('Etc/GMT+5');
  });

  it('keeps a name Intl maps to another zone as sent', () => {
    expect(timeZoneName('Asia/Kolkata')).toBe('Asia/Kolkata');
    expect(timeZoneName('asia/kolkata')).toBe('asia/kolkata');
  });

  it('refuses unknown zones, offsets and anything not shaped like an IANA name', () => {
    for (const name of ['Mars/Olympus_Mons', 'Europe/Berlinn', '+01:00', 'UTC+1', '', ' Europe/Berlin', 'Europe/../Berlin', 'Europe/Berlin\n']) {
      expect(timeZoneName(name), name).toBeUndefined();
    }
  });
});

describe('wall clock and offsets', () => {
  it('reads the wall clock and offset of a zone at an instant', () => {
    expect(wallClockAt('Europe/Berlin', at('2026-07-01T10:00:00Z'))).toBe(local('2026-07-01T12:00:00'));
    expect(offsetAt('Europe/Berlin', at('2026-01-01T10:00:00Z'))).toBe(HOUR);
    expect(offsetAt('America/New_York', at('2026-07-01T10:00:00Z'))).toBe(-4 * HOUR);
    expect(offsetAt('Australia/Lord_Howe', at('2026-01-01T00:00:00Z'))).toBe(11 * HOUR);
    expect(offsetAt('Australia/Lord_Howe', at('2026-07-01T00:00:00Z'))).toBe(10.5 * HOUR);
  });

  it('counts local days on the zone calendar', () => {
    expect(localDayAt('UTC', at('1970-01-02T00:00:00Z'))).toBe(1);
    expect(localDayAt('America/New_York', at('1970-01-02T03:00:00Z'))).toBe(0);
    expect(localDayAt('Asia/Tokyo', at('1970-01-01T16:00:00Z'))).toBe(1);
  });
});

describe('instantOf', () => {
  it('maps a plain local time to its one instant', () => {
    expect(instantOf('Europe/Berlin', local('2026-06-01T22:00:00'))).toBe(at('2026-06-01T20:00:00Z'));
    expect(instantOf('America/New_York', local('2026-01-15T08:30:00'))).toBe(at('2026-01-15T13:30:00Z'));
  });

  it('takes a local time the clock skips at the first instant after the gap (the transition)', () => {
    // Berlin springs from 02:00 CET to 03:00 CEST at 01:00Z; New York from 02:00 EST to 03:00 EDT at 07:00Z
    for (const time of ['02:00', '02:30', '02:59']) expect(instantOf('Europe/Berlin', local(`2026-03-29T${time}:00`)), time).toBe(at('2026-03-29T01:00:00Z'));
    expect(instantOf('Europe/Berlin', local('2026-03-29T03:00:00'))).toBe(at('2026-03-29T01:00:00Z'));
    expect(instantOf('America/New_York', local('2026-03-08T02:30:00'))).toBe(at('2026-03-08T07:00:00Z'));
    // Lord Howe springs half an hour, from 02:00 to 02:30 (+10:30 to +11)
    expect(instantOf('Australia/Lord_Howe', local('2026-10-04T02:15:00'))).toBe(at('2026-10-03T15:30:00Z'));
  });

  it('takes a local time the clock shows twice at its first occurrence', () => {
    // Berlin falls from 03:00 CEST back to 02:00 CET at 01:00Z; New York from 02:00 EDT to 01:00 EST at 06:00Z
    expect(instantOf('Europe/Berlin', local('2026-10-25T02:00:00'))).toBe(at('2026-10-25T00:00:00Z'));
    expect(instantOf('Europe/Berlin', local('2026-10-25T02:30:00'))).toBe(at('2026-10-25T00:30:00Z'));
    expect(instantOf('Europe/Berlin', local('2026-10-25T03:00:00'))).toBe(at('2026-10-25T02:00:00Z'));
    expect(instantOf('America/New_York', local('2026-11-01T01:30:00'))).toBe(at('2026-11-01T05:30:00Z'));
    expect(instantOf('America/New_York', local('2026-11-01T02:00:00'))).toBe(at('2026-11-01T07:00:00Z'));
    expect(instantOf('Australia/Lord_Howe', local('2026-04-05T01:45:00'))).toBe(at('2026-04-04T14:45:00Z'));
  });

  it('finds, for every instant, the earliest instant with the same wall clock', () => {
    const zones = ['Europe/Berlin', 'America/New_York', 'Australia/Lord_Howe', 'Asia/Kolkata', 'America/Sao_Paulo', 'UTC'];
    fc.assert(
      fc.property(fc.constantFrom(...zones), fc.integer({ min: at('2020-01-01T00:00:00Z') / 1000, max: at('2030-01-01T00:00:00Z') / 1000 }), (zone, seconds) => {
        const instant = seconds * 1000;
        const wall = wallClockAt(zone, instant);
        const found = instantOf(zone, wall);
        expect(wallClockAt(zone, found)).toBe(wall);
        expect(found).toBeLessThanOrEqual(instant);
        expect(instant - found).toBeLessThanOrEqual(HOUR);
      }),
      { numRuns: 500 },
    );
  });
});
