import { beforeAll, describe, expect, it } from 'vitest';
import { fullPass } from '#lib/alarms/engine/fullPass';
import { outboxMailer } from '#lib/adapters/mail';
import type { HistoryRecord } from '#lib/alarms/pure/history';
import { queryHistory } from '#lib/alarms/history';
import { listAlarms } from '#lib/alarms/query';
import * as alarmHistory from '#lib/alarms/repository/alarmHistory';
import * as liveConnections from '#lib/live/repository/connections';
import type { Page } from '#lib/store/paging';
import * as watchers from '#lib/watchers/repository';
import { deviceWithin, roomsWithin, serialNumbersWithin } from '#lib/devices/access';
import { countsIn } from '#lib/devices/counts';
import { lookup } from '#lib/devices/lookups';
import type { DeviceProvider } from '#lib/inventory/provider/index';
import { syncDevices } from '#lib/inventory/sync';
import { refreshDevice } from '#lib/inventory/refresh';
import { roomStatusCount } from '#lib/devices/stats';
import { HttpError, InvalidCursor } from '#lib/shared/errors';
import { pushTo } from '#lib/live/push';
import { connect, issueTicket, subscribe } from '#lib/live/session';
import type { Connections } from '#lib/live/types';
import type { AccessScope } from '#lib/shared/access';
import validate from '#generated/validators/liveMessage';
import { fixed, offlineWatcher, placed as at, unique } from '../support/fleet';

/*
 * Reads of a scoped caller against the store (DESIGN §5, ADR 0201 and docs/guide/rules/access.md and docs/guide/rules/live.md): its own region R1
 * (London and Paris) and another region R2 (Austin); every name is unique to this file.
 */
const R1 = unique('R1');
const R2 = unique('R2');
const fleet = [
  at(R1, 'London', `${R1}-1`, 'A', false),
  at(R1, 'London', `${R1}-2`, 'B', true),
  at(R1, 'Paris', `${R1}-3`, 'A', true),
  at(R2, 'Austin', `${R2}-1`, 'A', false),
  at(R2, 'Austin', `${R2}-2`, 'C', true),
];
const wholeR1: AccessScope = [{ region: R1 }];
const londonAndR2: AccessScope = [{ region: R1, location: 'London' }, { region: R2 }];
const everything = { regionName: 'all', locationName: 'all', roomName: 'all' };
const failure = (promise: Promise<unknown>) => promise.then(() => undefined, (error: unknown) => error as HttpError);

beforeAll(async () => {
  await syncDevices(fixed(() => fleet));
  await watchers.create(offlineWatcher(R1, `${unique('ops')}@example.com`));
  await watchers.create(offlineWatcher(R2, `${unique('ops')}@example.com`));
  await fullPass({ mailer: outboxMailer(), deadline: Date.now() + 30_000 });
}, 60_000);

describe('scoped counts and lists', () => {
  it("a region-scoped caller's counts of everything are the unscoped counts of its region", async () => {
    expect(await countsIn(everything, wholeR1)).toEqual(await countsIn({ ...everything, regionName: R1 }));
    expect(await countsIn(everything, wholeR1)).toMatchObject({ deviceCount: 3, rooms: 3, online: 2 });
  });

  it('counts over a scope of several entries add up, each room once', async () => {
    const london = await countsIn({ regionName: R1, locationName: 'London', roomName: 'all' });
    const r2 = await countsIn({ ...everything, regionName: R2 });
    expect(await countsIn(everything, londonAndR2)).toEqual(
      Object.fromEntries(Object.entries(london).map(([field, value]) => [field, value + r2[field as keyof typeof r2]])),
    );
    expect(await countsIn({ ...everything, roomName: 'A' }, londonAndR2)).toMatchObject({ deviceCount: 2, rooms: 2 });
  });

  it('a filter outside the scope counts and lists nothing', async () => {
    expect(await countsIn({ ...everything, regionName: R2 }, wholeR1)).toMatchObject({ deviceCount: 0, rooms: 0 });
    expect(await roomsWithin({ region: R2 }, wholeR1)).toEqual([]);
    expect(await lookup('location', { regionName: R2 }, wholeR1)).toEqual([]);
  });

  it('rooms, lookups and serial numbers hold only the scope', async () => {
    expect((await roomsWithin({}, londonAndR2)).map((r) => [r.region, r.location, r.room])).toEqual([
      [R1, 'London', 'A'],
      [R1, 'London', 'B'],
      [R2, 'Austin', 'A'],
      [R2, 'Austin', 'C'],
    ]);
    expect(await lookup('region', {}, londonAndR2)).toEqual([R1, R2].sort());
    expect(await lookup('location', {}, londonAndR2)).toEqual(['Austin', 'London']);
    expect(await lookup('room', { filters: everything }, londonAndR2)).toBe(4);
    expect(await serialNumbersWithin(wholeR1)).toEqual([`${R1}-1`, `${R1}-2`, `${R1}-3`]);
  });
});

describe('one device outside the scope', () => {
  it('is 404 with the body of an unknown serial number', async () => {
    expect((await deviceWithin(`${R1}-3`, wholeR1)).details.location).toBe('Paris');
    const outside = await failure(deviceWithin(`${R2}-1`, wholeR1));
    const unknown = await failure(deviceWithin(unique('none'), []));
    expect(outside?.statusCode).toBe(404);
    expect(outside?.message).toBe(`Device ${R2}-1 not found`);
    expect(unknown?.message).toMatch(/^Device .* not found$/);
  });

  it('is 404 on refresh before any provider is asked', async () => {
    let asked = 0;
    const provider: DeviceProvider = { listDevices: async () => fleet, getDevice: async (sn) => (asked++, fleet.find((d) => d.devicesn === sn)) };
    expect((await failure(refreshDevice(provider, `${R2}-2`, wholeR1)))?.statusCode).toBe(404);
    expect(asked).toBe(0);
    expect(await refreshDevice(provider, `${R1}-2`, wholeR1)).toMatchObject({ devicesn: `${R1}-2` });
    expect(asked).toBe(1);
  });

  it('a refresh that finds the device moved out of the scope stores it, then answers 404', async () => {
    const region = unique('R');
    const sn = `${region}-moving`;
    let where = at(region, 'Here', sn, 'A', true);
    // the provider reports the whole fleet: a sync removes what it does not report
    const provider = fixed(() => [...fleet, where]);
    await syncDevices(provider);
    where = at(`${region}-elsewhere`, 'There', sn, 'A', true);
    expect((await failure(refreshDevice(provider, sn, [{ region }])))?.statusCode).toBe(404);
    expect((await deviceWithin(sn, [])).details.region).toBe(`${region}-elsewhere`);
  });
});

describe('scoped alarms', () => {
  it('GET /alarms lists only the alarms within the scope, and nothing for a filter outside it', async () => {
    const scoped = (await listAlarms({}, wholeR1)) as { region: string; devicesn: string }[];
    expect(scoped.map((a) => a.devicesn)).toEqual([`${R1}-1`]);
    expect(await listAlarms({ region: R2 }, wholeR1)).toEqual([]);
    expect(await listAlarms({ region: R2, limit: '5' }, wholeR1)).toEqual({ items: [], nextCursor: null });
    const both = (await listAlarms({}, londonAndR2)) as { devicesn: string }[];
    expect(both.map((a) => a.devicesn).sort()).toEqual([`${R1}-1`, `${R2}-1`]);
  });

  describe('history', () => {
    const record = (region: string, location: string, minute: number): HistoryRecord => ({
      id: `w-hist:${region}-${location}-${minute}`,
      watcherId: 'w-hist',
      severity: 2,
      devicesn: `${region}-${location}-${minute}`,
      deviceid: 'd',
      region,
      location,
      room: 'A',
      raisedAt: '2026-11-20T00:00:00.000Z',
      clearedAt: `2026-11-20T10:${String(minute).padStart(2, '0')}:00.000Z`,
      reason: 'resolved',
      durationSeconds: 60,
      notified: { raised: [], cleared: [] },
    });
    const records = [record(R1, 'London', 1), record(R1, 'Paris', 2), record(R2, 'Austin', 3), record(R1, 'London', 4), record(R2, 'Austin', 5)];
    const window = { from: '2026-11-20T00:00:00.000Z', to: '2026-11-21T00:00:00.000Z' };
    const expiresAt = Math.floor(Date.now() / 1000) + 3600;
    beforeAll(() => alarmHistory.writeAll(records.map((r) => ({ record: r, expiresAt }))));

    const allPages = async (query: Parameters<typeof queryHistory>[0], access: AccessScope) => {
      const seen: string[] = [];
      let cursor: string | undefined;
      do {
        const page: Page<HistoryRecord> = await queryHistory({ ...query, limit: '2', ...(cursor ? { cursor } : {}) }, access);
        seen.push(...page.items.map((item) => item.devicesn));
        cursor = page.nextCursor ?? undefined;
      } while (cursor);
      return seen;
    };

    it('merges the places of a scope newest first, page after page', async () => {
      const expected = [records[4]!, records[3]!, records[2]!, records[0]!].map((r) => r.devicesn);
      expect((await queryHistory({ ...window }, londonAndR2)).items.map((r) => r.devicesn)).toEqual(expected);
      expect(await allPages({ ...window }, londonAndR2)).toEqual(expected);
    });

    it('one place narrows the query to its own key; outside the scope is empty', async () => {
      expect((await queryHistory({ ...window, region: R1 }, londonAndR2)).items.map((r) => r.devicesn)).toEqual([records[3]!.devicesn, records[0]!.devicesn]);
      expect(await queryHistory({ ...window, region: R1, location: 'Paris' }, londonAndR2)).toEqual({ items: [], nextCursor: null });
    });

    it("a device's or a watcher's history keeps only the records within the scope", async () => {
      expect((await queryHistory({ ...window, devicesn: records[1]!.devicesn }, londonAndR2)).items).toEqual([]);
      expect(await allPages({ ...window, watcherId: 'w-hist' }, londonAndR2)).toEqual([records[4]!, records[3]!, records[2]!, records[0]!].map((r) => r.devicesn));
    });

    it('a cursor of one scope is refused for another', async () => {
      const { nextCursor } = await queryHistory({ ...window, limit: '1' }, londonAndR2);
      expect(nextCursor).toBeTruthy();
      const refused = await failure(queryHistory({ ...window, limit: '1', cursor: nextCursor! }, [{ region: R1, location: 'Paris' }, { region: R2 }]));
      expect(refused).toBeInstanceOf(InvalidCursor);
    });
  });
});

describe('scoped live updates', () => {
  const posted: string[] = [];
  const connections: Connections = {
    post: async (connectionId) => {
      posted.push(connectionId);
      return 'sent';
    },
  };
  const openScoped = async (access: AccessScope) => {
    const id = unique('conn');
    const { ticket } = await issueTicket(everything, 'ws://localhost:1', access);
    await connect(id, ticket);
    return id;
  };

  it('a connection opened with a scoped ticket keeps the scope and hears only of rooms within it, whatever it subscribes to', async () => {
    const id = await openScoped(wholeR1);
    expect(await liveConnections.find(id)).toMatchObject({ access: wholeR1 });
    posted.length = 0;
    await pushTo(connections, { region: R2, location: 'Austin', room: 'A' }, { type: 'test' });
    expect(posted).not.toContain(id);
    await pushTo(connections, { region: R1, location: 'Paris', room: 'A' }, { type: 'test' });
    expect(posted).toContain(id);

    const answer = await subscribe(id, JSON.stringify({ action: 'subscribe', filter: { ...everything, roomName: 'A' } }), validate);
    expect(answer).toMatchObject({ type: 'subscribed', snapshot: roomStatusCount(await roomsWithin({ region: R1, room: 'A' }, [])) });
    expect(answer).toMatchObject({ snapshot: { TotalRooms: 2 } });
    posted.length = 0;
    await pushTo(connections, { region: R2, location: 'Austin', room: 'A' }, { type: 'test' });
    expect(posted).not.toContain(id);
    await pushTo(connections, { region: R1, location: 'London', room: 'A' }, { type: 'test' });
    expect(posted).toContain(id);
  });

  it('an unscoped ticket opens a connection without any scope, hearing of every room as before', async () => {
    const id = await openScoped([]);
    expect(await liveConnections.find(id)).not.toHaveProperty('access');
    posted.length = 0;
    await pushTo(connections, { region: R2, location: 'Austin', room: 'C' }, { type: 'test' });
    expect(posted).toContain(id);
  });
});
