import { afterEach, describe, expect, it } from 'vitest';
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { doc, tableName } from '#lib/store/client';
import { MAINTENANCE, MaintenanceWindowEntity } from '#lib/maintenance/entities';
import * as store from '#lib/maintenance/repository/windows';
import { Conflict, Invalid, NotFound } from '#lib/shared/errors';
import { createWindow, getWindow, listWindows, removeWindow, replaceWindow, windowsOpenAt } from '#lib/maintenance/service';
import type { MaintenanceWindow, WindowInput } from '#lib/maintenance/types';
import { matchingWindows, timeOrderedId } from '#lib/maintenance/pure/windows';
import type { AccessScope } from '#lib/shared/access';

// The maintenance windows' repository and service against the embedded store (this file's own
// table): one partition read by one Query, versioned replace and delete, the cap, scopes.

const DAY = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString();
const body = (overrides: Partial<WindowInput> = {}): WindowInput => ({
  matchers: { region: 'EMEA', location: 'Berlin' },
  schedule: { days: ['TU'], start: '22:00', durationMinutes: 240, timeZone: 'Europe/Berlin' },
  comment: 'weekly patching',
  ...overrides,
});
const emea: AccessScope = [{ region: 'EMEA' }];
const berlinOnly: AccessScope = [{ region: 'EMEA', location: 'Berlin' }];
const saved = process.env.MAINTENANCE_WINDOWS_MAX;
afterEach(() => {
  if (saved === undefined) delete process.env.MAINTENANCE_WINDOWS_MAX;
  else process.env.MAINTENANCE_WINDOWS_MAX = saved;
});
const rawItem = async (id: string) => (await doc.send(new GetCommand({ TableName: tableName(), Key: MaintenanceWindowEntity.key(id), ConsistentRead: true }))).Item;
const allIds = async () => {
  const ids: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await listWindows({ limit: '50', ...(cursor ? { cursor } : {}) });
    ids.push(...page.items.map((w) => w.id));
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return ids;
};

describe('creating and reading windows', () => {
  it('stores a window under its keys, answers it with status and next opening, and reads it back', async () => {
    const created = await createWindow(body(), 'ops');
    expect(created).toMatchObject({ matchers: { region: 'EMEA', location: 'Berlin' }, createdBy: 'ops', comment: 'weekly patching' });
    expect(['active', 'scheduled']).toContain(created.status);
    expect(Date.parse(created.nextOpening!)).toBeGreaterThan(Date.now());
    expect(await rawItem(created.id)).toMatchObject({ type: 'MaintenanceWindow', id: created.id, version: 1, schedule: { timeZone: 'Europe/Berlin' } });
    expect((await rawItem(created.id))?.expiresAt).toBeUndefined();
    expect(await getWindow(created.id)).toEqual({ ...created, status: expect.any(String), nextOpening: expect.any(String), nextClosing: expect.any(String) });
  });

  it('keeps an RRULE as sent, resolves the zone letter case, and stores dates as UTC ISO', async () => {
    const created = await createWindow(
      body({ schedule: { rrule: 'FREQ=DAILY;BYHOUR=3', durationMinutes: 30, timeZone: 'america/new_york' }, startsAt: '2026-12-01T00:00:00+01:00', endsAt: iso(Date.now() + 30 * DAY) }),
      'ops',
    );
    expect(created.schedule).toEqual({ rrule: 'FREQ=DAILY;BYHOUR=3', durationMinutes: 30, timeZone: 'America/New_York' });
    expect(created.startsAt).toBe('2026-11-30T23:00:00.000Z');
    const item = await rawItem(created.id);
    // counts against the cap until its last opening may close; kept ALARM_HISTORY_DAYS more
    expect(item?.until).toBe(Date.parse(created.endsAt!) + 90 * 60_000);
    expect(item?.expiresAt).toBe(Math.floor((item?.until as number) / 1000) + 90 * 86_400);
  });

  it('refuses bad input with Invalid naming the field, and stores nothing', async () => {
    const before = (await allIds()).length;
    const refusal = async (input: WindowInput) => {
      const error = await createWindow(input, 'ops').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(Invalid);
      return (error as Invalid).details?.map((d) => d.field);
    };
    expect(await refusal(body({ schedule: { days: ['TU'], start: '22:00', durationMinutes: 240, timeZone: 'Europe/Nowhere' } }))).toEqual(['body.schedule.timeZone']);
    expect(await refusal(body({ schedule: { days: ['TU'], start: '22:00', durationMinutes: 240 } }))).toEqual(['body.schedule.timeZone']);
    expect(await refusal(body({ startsAt: iso(Date.now() + DAY), endsAt: iso(Date.now()) }))).toEqual(['body.endsAt']);
    expect(await refusal(body({ endsAt: iso(Date.now() - DAY) }))).toEqual(['body.endsAt']);
    expect((await allIds()).length).toBe(before);
  });

  it('takes the zone of the place when the schedule names none and one is known', async () => {
    const created = await createWindow(body({ schedule: { days: ['MO'], start: '01:00', durationMinutes: 60 } }), 'ops', [], { placeTimeZone: async (m) => (m.location === 'Berlin' ? 'Europe/Berlin' : undefined) });
    expect(created.schedule.timeZone).toBe('Europe/Berlin');
  });
});

describe('listing', () => {
  it('pages every window with one Query of one partition, oldest first, cursors continuing', async () => {
    const made = [];
    for (let i = 0; i < 5; i++) made.push((await createWindow(body({ comment: `list ${i}` }), 'ops')).id);
    const ids = await allIds();
    expect(ids).toEqual([...ids].sort());
    const positions = made.map((id) => ids.indexOf(id));
    expect(positions.every((p, i) => p >= 0 && (i === 0 || p > positions[i - 1]!))).toBe(true);
    const first = await listWindows({ limit: '2' });
    expect(first.items).toHaveLength(2);
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = await listWindows({ limit: '2', cursor: first.nextCursor! });
    expect(second.items[0]!.id > first.items[1]!.id).toBe(true);
    // the partition holds the windows and nothing else (the cap's roster lives apart)
    const { Items } = await doc.send(new QueryCommand({ TableName: tableName(), KeyConditionExpression: 'PK = :pk', ExpressionAttributeValues: { ':pk': MAINTENANCE } }));
    expect(Items?.every((item) => item.type === 'MaintenanceWindow')).toBe(true);
  });

  it('treats a window past its retention as gone', async () => {
    const window: MaintenanceWindow = { ...body(), id: timeOrderedId(), schedule: { ...body().schedule, timeZone: 'UTC' }, createdBy: 'x', createdAt: iso(Date.now()), updatedAt: iso(Date.now()) };
    await store.create(window, { until: Date.now() - DAY, expiresAt: Math.floor(Date.now() / 1000) - 1 });
    await expect(getWindow(window.id)).rejects.toBeInstanceOf(NotFound);
    expect(await allIds()).not.toContain(window.id);
  });
});

describe('openings a day', () => {
  const EVERY_TWO_MINUTES = `FREQ=DAILY;BYHOUR=${Array.from({ length: 24 }, (_, h) => h).join(',')};BYMINUTE=${Array.from({ length: 30 }, (_, i) => i * 2).join(',')}`;

  it('refuses a window of 720 openings a day (400 naming the schedule) and stores nothing', async () => {
    const before = (await allIds()).length;
    const error = await createWindow(body({ schedule: { rrule: EVERY_TWO_MINUTES, durationMinutes: 1, timeZone: 'UTC' } }), 'ops', berlinOnly).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Invalid);
    expect((error as Invalid).details).toEqual([{ field: 'body.schedule.rrule', message: expect.stringContaining('opens 720 times a day') }]);
    expect((await allIds()).length).toBe(before);
  });

  it('reads a window stored above the cap as ended: listed, read and deleted, holding nothing', async () => {
    const now = new Date().toISOString();
    const over: MaintenanceWindow = { id: timeOrderedId(), matchers: { region: 'EMEA' }, schedule: { rrule: EVERY_TWO_MINUTES, durationMinutes: 1, timeZone: 'UTC' }, comment: 'stored before the cap', createdBy: 'ops', createdAt: now, updatedAt: now };
    await store.create(over, {});
    expect(await getWindow(over.id)).toMatchObject({ status: 'ended', nextOpening: null, nextClosing: null });
    expect((await windowsOpenAt()).map(({ window }) => window.id)).not.toContain(over.id);
    const error = await replaceWindow(over.id, body({ schedule: { rrule: EVERY_TWO_MINUTES, durationMinutes: 1, timeZone: 'UTC' } })).catch((e: unknown) => e);
    expect((error as Invalid).details?.map((d) => d.field)).toEqual(['body.schedule.rrule']);
    await removeWindow(over.id);
    await expect(getWindow(over.id)).rejects.toBeInstanceOf(NotFound);
  });
});

describe('replacing and deleting', () => {
  it('replaces a window whole, keeping id, createdBy and createdAt, bumping the version', async () => {
    const created = await createWindow(body(), 'ops');
    const replaced = await replaceWindow(created.id, body({ matchers: { vendor: 'zoom' }, schedule: { rrule: 'FREQ=WEEKLY;BYDAY=SA;BYHOUR=6', durationMinutes: 120, timeZone: 'UTC' }, comment: 'now' }));
    expect(replaced).toMatchObject({ id: created.id, createdBy: 'ops', createdAt: created.createdAt, matchers: { vendor: 'zoom' }, comment: 'now' });
    expect(replaced.schedule).toEqual({ rrule: 'FREQ=WEEKLY;BYDAY=SA;BYHOUR=6', durationMinutes: 120, timeZone: 'UTC' });
    expect((await rawItem(created.id))?.version).toBe(2);
    expect((await rawItem(created.id))?.matchers).toEqual({ vendor: 'zoom' });
  });

  it('refuses a replace or delete of a version another request wrote meanwhile (409)', async () => {
    const created = await createWindow(body(), 'ops');
    const read = await store.getVersioned(created.id);
    await replaceWindow(created.id, body({ comment: 'first' }));
    const stale = { ...read.record, comment: 'second' };
    await expect(store.replace(read, stale, {})).rejects.toBeInstanceOf(Conflict);
    await expect(store.remove(read)).rejects.toBeInstanceOf(Conflict);
    expect((await getWindow(created.id)).comment).toBe('first');
  });

  it('deletes a window; then it is 404 to read, replace and delete', async () => {
    const created = await createWindow(body(), 'ops');
    await removeWindow(created.id);
    expect(await rawItem(created.id)).toBeUndefined();
    await expect(getWindow(created.id)).rejects.toBeInstanceOf(NotFound);
    await expect(replaceWindow(created.id, body())).rejects.toBeInstanceOf(NotFound);
    await expect(removeWindow(created.id)).rejects.toBeInstanceOf(NotFound);
  });

  it('answers 404 for a stale delete of a window deleted meanwhile', async () => {
    const created = await createWindow(body(), 'ops');
    const read = await store.getVersioned(created.id);
    await removeWindow(created.id);
    await expect(store.remove(read)).rejects.toBeInstanceOf(NotFound);
  });
});

describe('within a scope', () => {
  it('creates inside the scope, and refuses a window pinning no region of it (404, as silences)', async () => {
    expect((await createWindow(body(), 'scoped', emea)).matchers.region).toBe('EMEA');
    for (const matchers of [{ region: 'AMER' }, { vendor: 'zoom' }, { devicesn: 'SN1' }, { location: 'Berlin' }]) {
      const error = await createWindow(body({ matchers }), 'scoped', emea).catch((e: unknown) => e);
      expect(error, JSON.stringify(matchers)).toBeInstanceOf(NotFound);
      expect((error as NotFound).details?.[0]?.field).toBe('body.matchers');
    }
    await expect(createWindow(body({ matchers: { region: 'EMEA', location: 'Paris' } }), 'scoped', berlinOnly)).rejects.toBeInstanceOf(NotFound);
  });

  it('reads, lists, replaces and deletes only windows within the scope; others are 404', async () => {
    const inside = await createWindow(body({ comment: 'inside' }), 'ops');
    const outside = await createWindow(body({ matchers: { region: 'AMER' }, comment: 'outside' }), 'ops');
    expect((await getWindow(inside.id, emea)).id).toBe(inside.id);
    await expect(getWindow(outside.id, emea)).rejects.toBeInstanceOf(NotFound);
    const listed = (await listWindows({ limit: '1000' }, emea)).items;
    expect(listed.map((w) => w.id)).toContain(inside.id);
    expect(listed.every((w) => w.matchers.region === 'EMEA')).toBe(true);
    await expect(replaceWindow(outside.id, body(), emea)).rejects.toBeInstanceOf(NotFound);
    // moving a window of the scope out of it is refused too
    await expect(replaceWindow(inside.id, body({ matchers: { region: 'AMER' } }), emea)).rejects.toBeInstanceOf(NotFound);
    await expect(removeWindow(outside.id, emea)).rejects.toBeInstanceOf(NotFound);
    expect((await getWindow(outside.id)).comment).toBe('outside');
    await removeWindow(inside.id, emea);
    await expect(getWindow(inside.id)).rejects.toBeInstanceOf(NotFound);
  });
});

describe('the cap', () => {
  it('refuses windows past MAINTENANCE_WINDOWS_MAX (409), parallel creates too; a delete frees a place', async () => {
    const living = (await listWindows({ limit: '1000' })).items.filter((w) => w.status !== 'ended').length;
    process.env.MAINTENANCE_WINDOWS_MAX = String(living + 3);
    const answers = await Promise.allSettled(Array.from({ length: 8 }, (_, i) => createWindow(body({ comment: `cap ${i}` }), 'ops')));
    const made = answers.flatMap((a) => (a.status === 'fulfilled' ? [a.value] : []));
    expect(made).toHaveLength(3);
    for (const refused of answers.filter((a) => a.status === 'rejected')) {
      expect(refused.reason).toBeInstanceOf(Conflict);
      expect((refused.reason as Conflict).message).toMatch(/MAINTENANCE_WINDOWS_MAX/);
    }
    await removeWindow(made[0]!.id);
    expect((await createWindow(body(), 'ops')).id).toEqual(expect.any(String));
    await expect(createWindow(body(), 'ops')).rejects.toBeInstanceOf(Conflict);
  });
});

describe('for the alarm engine', () => {
  it('reads the windows open at an instant in one Query, and matches an alarm against them', async () => {
    // daily from the top of this hour, for two hours: open now
    const hour = new Date().getUTCHours();
    const vendorWindow = await createWindow(
      body({ matchers: { vendor: `engine-${timeOrderedId()}` }, schedule: { rrule: `FREQ=DAILY;BYHOUR=${hour}`, durationMinutes: 120, timeZone: 'UTC' } }),
      'ops',
    );
    expect(vendorWindow.status).toBe('active');
    const now = new Date();
    const open = await windowsOpenAt(now);
    expect(open.map((o) => o.window.id)).toContain(vendorWindow.id);
    const target = { region: 'APAC', location: 'Tokyo', room: 'R', devicesn: 'SN', watcherId: 'w', vendor: vendorWindow.matchers.vendor };
    expect(matchingWindows(open, target)).toContain(vendorWindow.id);
    expect(matchingWindows(open, { ...target, vendor: 'other' })).not.toContain(vendorWindow.id);
  });
});
