import { describe, expect, it } from 'vitest';
import * as connectivity from '#lib/devices/repository/connectivity';
import * as store from '#lib/locations/repository';
import { roomAvailability } from '#lib/devices/availability';
import type { ProviderDevice } from '#lib/devices/types';
import { Invalid, NotFound } from '#lib/shared/errors';
import type { DeviceProvider } from '#lib/inventory/provider/index';
import { syncDevices } from '#lib/inventory/sync';
import { getProfile, listProfiles, putProfile, removeProfile } from '#lib/locations/service';
import type { ProfileInput } from '#lib/locations/types';
import { createWindow, removeWindow } from '#lib/maintenance/service';
import { historyExpiry } from '#lib/shared/retention';

let n = 0;
const unique = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${++n}`;
const OFFICE = 'Mon-Fri 08:00-18:00';

const refused = async (work: Promise<unknown>): Promise<(string | undefined)[] | undefined> => {
  const error = await work.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(Invalid);
  return (error as Invalid).details?.map((d) => d.field);
};

describe('location profiles (repository and service)', () => {
  it('stores, reads, replaces whole and deletes a profile; names with # do not collide', async () => {
    const region = unique('LP#1');
    const a = { region, location: 'a#b' };
    const b = { region: `${region}#a`, location: 'b' };
    const stored = await putProfile(a, { timeZone: 'europe/berlin', businessHours: OFFICE, rooms: [{ room: 'R#1', timeZone: 'America/New_York' }] }, 'ops');
    expect(stored).toEqual({ ...a, timeZone: 'Europe/Berlin', businessHours: OFFICE, rooms: [{ room: 'R#1', timeZone: 'America/New_York' }], updatedBy: 'ops', updatedAt: expect.any(String) });
    expect(await getProfile(a)).toEqual(stored);
    await expect(getProfile(b)).rejects.toBeInstanceOf(NotFound);
    // a replace is whole: what it does not name is gone
    const replaced = await putProfile(a, { timeZone: 'UTC' }, 'lead');
    expect(await getProfile(a)).toEqual(replaced);
    expect(replaced).toEqual({ ...a, timeZone: 'UTC', rooms: [], updatedBy: 'lead', updatedAt: expect.any(String) });
    await removeProfile(a);
    await expect(getProfile(a)).rejects.toBeInstanceOf(NotFound);
    await expect(removeProfile(a)).rejects.toBeInstanceOf(NotFound);
  });

  it('two PUTs racing leave one of them whole, never a mix', async () => {
    const place = { region: unique('LP-race'), location: 'HQ' };
    const first: ProfileInput = { timeZone: 'Europe/Berlin', businessHours: OFFICE, rooms: [{ room: 'A', businessHours: '24h' }] };
    const second: ProfileInput = { timeZone: 'America/New_York', rooms: [{ room: 'B', timeZone: 'America/Chicago' }] };
    const answers = await Promise.all([putProfile(place, first, 'one'), putProfile(place, second, 'two')]);
    const { updatedAt: _at, ...kept } = await getProfile(place);
    expect(answers.map(({ updatedAt: _, ...rest }) => rest)).toContainEqual(kept);
  });

  it('refuses what it cannot store, naming the field: bad hours, unknown zones, names too long for a key', async () => {
    const place = { region: unique('LP-bad'), location: 'HQ' };
    expect(await refused(putProfile(place, { timeZone: 'Mars/Olympus', businessHours: 'weekdays' }, 'ops'))).toEqual(['body.timeZone', 'body.businessHours']);
    expect(await refused(putProfile(place, { timeZone: 'UTC', rooms: [{ room: 'A', businessHours: OFFICE }, { room: 'A', timeZone: 'UTC' }] }, 'ops'))).toEqual(['body.rooms[1].room']);
    const long = { region: 'é'.repeat(200), location: 'HQ' };
    expect(await refused(putProfile(long, { timeZone: 'UTC' }, 'ops'))).toEqual(['path.region']);
    expect(await refused(getProfile(long))).toEqual(['path.region']);
    await expect(getProfile(place)).rejects.toBeInstanceOf(NotFound);
  });

  it("answers within the caller's scope: elsewhere is 404, the list holds the scope's share", async () => {
    const region = unique('LP-scope');
    await putProfile({ region, location: 'Berlin' }, { timeZone: 'Europe/Berlin' }, 'ops');
    await putProfile({ region, location: 'Boston' }, { timeZone: 'America/New_York' }, 'ops');
    const berlinOnly = [{ region, location: 'Berlin' }];
    expect((await getProfile({ region, location: 'Berlin' }, berlinOnly)).timeZone).toBe('Europe/Berlin');
    await expect(getProfile({ region, location: 'Boston' }, berlinOnly)).rejects.toBeInstanceOf(NotFound);
    const page = await listProfiles({ limit: '10' }, berlinOnly);
    expect(page.items.map((p) => p.location)).toEqual(['Berlin']);
    // unscoped: a page at a time, the cursor carrying on
    const mine: string[] = [];
    let cursor: string | undefined;
    do {
      const next = await listProfiles({ limit: '1', ...(cursor ? { cursor } : {}) });
      mine.push(...next.items.filter((p) => p.region === region).map((p) => p.location));
      cursor = next.nextCursor ?? undefined;
    } while (cursor);
    expect(mine).toEqual(['Berlin', 'Boston']);
    expect([...(await store.all()).values()].filter((p) => p.region === region)).toHaveLength(2);
  });

  it("gives a maintenance window without a zone its location's (a room's own first)", async () => {
    const region = unique('LP-mw');
    await putProfile({ region, location: 'Berlin' }, { timeZone: 'Europe/Berlin', rooms: [{ room: 'NY', timeZone: 'America/New_York' }] }, 'ops');
    const schedule = { days: ['TU' as const], start: '22:00', durationMinutes: 60 };
    const location = await createWindow({ matchers: { region, location: 'Berlin' }, schedule, comment: 'patching' }, 'ops');
    const room = await createWindow({ matchers: { region, location: 'Berlin', room: 'NY' }, schedule, comment: 'patching' }, 'ops');
    try {
      expect(location.schedule.timeZone).toBe('Europe/Berlin');
      expect(room.schedule.timeZone).toBe('America/New_York');
      // a location without a profile still needs one
      expect(await refused(createWindow({ matchers: { region, location: 'Paris' }, schedule, comment: 'patching' }, 'ops'))).toEqual(['body.schedule.timeZone']);
    } finally {
      await removeWindow(location.id);
      await removeWindow(room.id);
    }
  });
});

describe('availability counts each room in its own hours and zone', () => {
  const DAY = '2026-11-17'; // a Tuesday
  const at = (time: string) => `${DAY}T${time}.000Z`;
  const WINDOW = { from: at('00:00:00'), to: '2026-11-18T00:00:00.000Z' };
  const device = (region: string, room: string): ProviderDevice => ({
    deviceid: `id-${region}-${room}`,
    devicesn: `${region}-${room}`,
    devicemodel: 'X50',
    status: { connected: true, inCallStatus: 'NONE' },
    details: { region, location: 'Paris', room },
  });
  /** Rooms A and B of one location, each out 10:00-11:00 UTC on the Tuesday (a 40 s blip at 03:00 too). */
  const seed = async () => {
    const region = unique('LP-av');
    const fleet = [device(region, 'A'), device(region, 'B')];
    const provider: DeviceProvider = { listDevices: async () => fleet, getDevice: async (sn) => fleet.find((d) => d.devicesn === sn) };
    await syncDevices(provider);
    const outages = [['03:00:00', '03:00:40'], ['10:00:00', '11:00:00']];
    const flips = [{ at: at('00:00:00'), connected: true }, ...outages.flatMap(([down, up]) => [{ at: at(down!), connected: false }, { at: at(up!), connected: true }])];
    await connectivity.record(fleet.flatMap((d) => flips.map((flip) => ({ devicesn: d.devicesn, ...flip, inCallStatus: 'NONE' }))), historyExpiry);
    return region;
  };
  const withoutFleetHours = async <T>(work: () => Promise<T>): Promise<T> => {
    const before = process.env.BUSINESS_HOURS;
    delete process.env.BUSINESS_HOURS;
    try {
      return await work();
    } finally {
      if (before !== undefined) process.env.BUSINESS_HOURS = before;
    }
  };

  it('a room in New York office hours misses the outage a room in Berlin office hours counts; the answer says so per room', async () => {
    const region = await seed();
    const body = { regionName: region, locationName: 'all', roomName: 'all', ...WINDOW };
    // no profile, no BUSINESS_HOURS: as before, 24 h from the rollups and no per-room fields
    const before = await withoutFleetHours(() => roomAvailability(body));
    expect('hours' in before).toBe(false);
    await putProfile({ region, location: 'Paris' }, { timeZone: 'America/New_York', businessHours: OFFICE, rooms: [{ room: 'A', timeZone: 'Europe/Berlin' }] }, 'ops');
    const answer = await withoutFleetHours(() => roomAvailability({ ...body, unhealthyDays: 30 }));
    // 10:00-11:00 UTC is 11:00-12:00 in Berlin (counted) and 05:00-06:00 in New York (not)
    expect(answer).toEqual({
      ...WINDOW,
      hours: 'business',
      rooms: [
        { region, location: 'Paris', room: 'A', availability: 0.9, deviceCount: 1, outageMinutes: 60, unhealthyDays: 1, hours: 'business', timeZone: 'Europe/Berlin' },
        { region, location: 'Paris', room: 'B', availability: 1, deviceCount: 1, outageMinutes: 0, unhealthyDays: 0, hours: 'business', timeZone: 'America/New_York' },
      ],
      overall: 0.95,
    });
  });

  it('counts a room with no hours anywhere all day, and says so', async () => {
    const region = await seed();
    await putProfile({ region, location: 'Paris' }, { timeZone: 'UTC', rooms: [{ room: 'A', businessHours: OFFICE }] }, 'ops');
    const answer = await withoutFleetHours(() => roomAvailability({ regionName: region, locationName: 'all', roomName: 'all', ...WINDOW }));
    // worst first: A's hour is a tenth of its business day, B's a 24th of its whole day
    expect(answer.rooms).toEqual([
      { region, location: 'Paris', room: 'A', availability: 0.9, deviceCount: 1, outageMinutes: 60, hours: 'business', timeZone: 'UTC' },
      { region, location: 'Paris', room: 'B', availability: 0.9583, deviceCount: 1, outageMinutes: 60, hours: '24h', timeZone: 'UTC' },
    ]);
    // 24 h on request: every room all day, unhealthy days on each room's own calendar
    const allDay = await withoutFleetHours(() => roomAvailability({ regionName: region, locationName: 'all', roomName: 'all', ...WINDOW, hours: '24h', unhealthyDays: 30 }));
    expect(allDay.rooms.map((r) => [r.room, 'hours' in r ? r.hours : undefined, r.availability])).toEqual([
      ['A', '24h', 0.9583],
      ['B', '24h', 0.9583],
    ]);
  });
});
