import { describe, expect, it } from 'vitest';
import { acknowledgeAlarm, unacknowledgeAlarm } from '#lib/alarms/acknowledge';
import { fullPass } from '#lib/alarms/engine/fullPass';
import { createSilence, endSilence, getSilence, listSilences } from '#lib/alarms/silences';
import { outboxMailer } from '#lib/adapters/mail';
import * as alarms from '#lib/alarms/repository/alarms';
import type { Page } from '#lib/store/paging';
import * as watchers from '#lib/watchers/repository';
import { syncDevices } from '#lib/inventory/sync';
import type { ProviderDevice } from '#lib/devices/types';
import { Conflict, NotFound } from '#lib/shared/errors';
import type { AccessScope } from '#lib/shared/access';
import { getWithin, listWithin } from '#lib/watchers/reach';
import { createWatcher, removeWatcher, setWatcherActive, updateWatcher } from '#lib/watchers/write';
import { fixed, unique, watcherInput } from '../support/fleet';

// The three writers against the store, with a scoped caller: acknowledging (the alarm's place),
// silences (their matchers) and watchers (their stored scope, their conditions). Out of scope is
// 404, as if unknown; the unscoped act as before scopes.

const evaluate = () => fullPass({ mailer: outboxMailer(), deadline: Date.now() + 30_000 });
const place = (region: string, location: string, sn: string, connected: boolean): ProviderDevice => ({
  deviceid: `id-${sn}`,
  devicesn: sn,
  devicemodel: 'X50',
  status: { connected, inCallStatus: 'NONE' },
  details: { region, location, room: 'A' },
});
const HOUR = 3_600_000;
const inAnHour = () => new Date(Date.now() + HOUR).toISOString();

/** Two regions with an open alarm each (one unscoped watcher over both devices). */
const twoAlarms = async () => {
  const inside = unique('IN');
  const outside = unique('OUT');
  let fleet = [place(inside, 'London', `${inside}-1`, false), place(outside, 'London', `${outside}-1`, false)];
  const provider = fixed(() => fleet);
  await syncDevices(provider);
  const watcherId = await watchers.create(watcherInput({ allDevices: false, devicesId: fleet.map((d) => d.devicesn) }));
  await evaluate();
  const moveInside = async (to: string) => {
    fleet = [place(to, 'London', `${inside}-1`, false), fleet[1]!];
    await syncDevices(provider);
    await evaluate();
  };
  return { inside, outside, watcherId, scope: [{ region: inside }] as AccessScope, idIn: `${watcherId}:${inside}-1`, idOut: `${watcherId}:${outside}-1`, moveInside };
};

describe('acknowledging with a scope', () => {
  it('acknowledges an alarm inside the scope and answers 404 for one outside, leaving it untouched', async () => {
    const s = await twoAlarms();

    expect(await acknowledgeAlarm(s.idIn, 'ana', 'on it', s.scope)).toMatchObject({ id: s.idIn, acknowledgedBy: 'ana', ackComment: 'on it' });
    await expect(acknowledgeAlarm(s.idOut, 'ana', undefined, s.scope)).rejects.toThrow(new NotFound(`Alarm ${s.idOut} not found`));
    await expect(unacknowledgeAlarm(s.idOut, s.scope)).rejects.toBeInstanceOf(NotFound);

    expect((await alarms.get({ watcherId: s.watcherId, devicesn: `${s.outside}-1` }))?.acknowledgedBy).toBeUndefined();
    expect((await unacknowledgeAlarm(s.idIn, s.scope)).acknowledgedBy).toBeUndefined();
  });

  it('answers the same 404 for an unknown alarm and an outside one', async () => {
    const s = await twoAlarms();
    const unknown = `${s.watcherId}:${unique('ghost')}`;
    await expect(acknowledgeAlarm(unknown, 'ana', undefined, s.scope)).rejects.toThrow(new NotFound(`Alarm ${unknown} not found`));
  });

  it('follows the device: once it moved out of the scope its alarm is 404', async () => {
    const s = await twoAlarms();
    await s.moveInside(s.outside);
    await expect(acknowledgeAlarm(s.idIn, 'ana', undefined, s.scope)).rejects.toBeInstanceOf(NotFound);
    expect(await acknowledgeAlarm(s.idIn, 'ana', undefined, [{ region: s.outside }])).toMatchObject({ acknowledgedBy: 'ana' });
  });

  it('writes nothing when the alarm moved between the scope check and the write', async () => {
    const s = await twoAlarms();
    const pair = { watcherId: s.watcherId, devicesn: `${s.inside}-1` };
    const checked = { region: s.outside, location: 'London' }; // where a check read it, no longer where it is
    expect(await alarms.acknowledgeAt(pair, { acknowledgedAt: new Date().toISOString(), acknowledgedBy: 'ana' }, checked)).toBeUndefined();
    expect((await alarms.get(pair))?.acknowledgedBy).toBeUndefined();
  });

  it('keeps the unscoped acting on every alarm, and 409 for one no longer open within the scope', async () => {
    const s = await twoAlarms();
    expect(await acknowledgeAlarm(s.idOut, 'api-key')).toMatchObject({ acknowledgedBy: 'api-key' });
    await watchers.remove(s.watcherId);
    await evaluate();
    await expect(acknowledgeAlarm(s.idIn, 'ana', undefined, s.scope)).rejects.toBeInstanceOf(Conflict);
    await expect(acknowledgeAlarm(s.idOut, 'ana', undefined, s.scope)).rejects.toBeInstanceOf(NotFound);
  });
});

describe('silences with a scope', () => {
  const input = (matchers: Record<string, string>) => ({ matchers, endsAt: inAnHour(), comment: 'maintenance' });

  it('creates a silence that pins a region of the scope, and 404 for one outside or pinning none', async () => {
    const region = unique('R');
    const scope: AccessScope = [{ region }];

    expect(await createSilence(input({ region, room: 'A' }), 'ana', scope)).toMatchObject({ matchers: { region, room: 'A' }, createdBy: 'ana' });
    await expect(createSilence(input({ region: unique('OTHER') }), 'ana', scope)).rejects.toBeInstanceOf(NotFound);
    await expect(createSilence(input({ devicesn: 'SN-1' }), 'ana', scope)).rejects.toBeInstanceOf(NotFound);
    await expect(createSilence(input({ location: 'London' }), 'ana', scope)).rejects.toBeInstanceOf(NotFound);
  });

  it('needs a location where the scope holds only locations of that region', async () => {
    const region = unique('R');
    const scope: AccessScope = [{ region, location: 'Austin' }];
    await expect(createSilence(input({ region }), 'ana', scope)).rejects.toBeInstanceOf(NotFound);
    expect((await createSilence(input({ region, location: 'Austin' }), 'ana', scope)).matchers).toEqual({ region, location: 'Austin' });
  });

  it('shows and ends only silences within the scope, 404 for the others', async () => {
    const region = unique('R');
    const scope: AccessScope = [{ region }];
    const mine = await createSilence(input({ region }), 'ana', scope);
    const other = await createSilence(input({ region: unique('OTHER') }), 'api-key');

    expect((await getSilence(mine.id, scope)).id).toBe(mine.id);
    await expect(getSilence(other.id, scope)).rejects.toThrow(new NotFound(`Silence ${other.id} not found`));
    await expect(endSilence(other.id, scope)).rejects.toBeInstanceOf(NotFound);
    expect((await getSilence(other.id)).status).toBe('active');

    const listed = (await listSilences({}, scope)) as { id: string }[];
    expect(listed.map((s) => s.id)).toEqual([mine.id]);
    expect(((await listSilences({})) as { id: string }[]).map((s) => s.id)).toEqual(expect.arrayContaining([mine.id, other.id]));

    expect((await endSilence(mine.id, scope)).status).toBe('expired');
  });

  it('fills a scoped page past the silences outside, its cursor carrying on from there', async () => {
    const region = unique('R');
    const scope: AccessScope = [{ region }];
    const ends = (minutes: number) => new Date(Date.now() + HOUR + minutes * 60_000).toISOString();
    // interleaved by end: outside, mine, outside, mine, outside, mine
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) {
      const mine = i % 2 === 1;
      const created = await createSilence({ matchers: { region: mine ? region : unique('OTHER') }, endsAt: ends(1000 + i), comment: 'paged' }, 'ana', mine ? scope : []);
      if (mine) ids.push(created.id);
    }
    const first = (await listSilences({ limit: '2' }, scope)) as Page<{ id: string }>;
    expect(first.items.map((s) => s.id)).toEqual(ids.slice(0, 2));
    const second = (await listSilences({ limit: '2', cursor: first.nextCursor! }, scope)) as Page<{ id: string }>;
    expect(second.items.map((s) => s.id)).toEqual(ids.slice(2));
  });
});

describe('watchers with a scope', () => {
  const region = () => unique('R');

  it('stores the creator\'s scope; an unscoped watcher has no scope field', async () => {
    const r = region();
    const scoped = await createWatcher(watcherInput(), [{ region: r }]);
    const unscoped = await createWatcher(watcherInput());
    expect((await watchers.get(scoped)).scope).toEqual([{ region: r }]);
    expect(await watchers.get(unscoped)).not.toHaveProperty('scope');
  });

  it('refuses (404) conditions naming a region outside the scope, naming the condition only', async () => {
    const r = region();
    const outside = unique('OUT');
    const body = watcherInput({
      operations: { type: 'device', operatorType: 'OR', conditions: [{ element: 'details.region', operator: '==', value: outside }] },
    });
    const refused = createWatcher(body, [{ region: r }]);
    await expect(refused).rejects.toBeInstanceOf(NotFound);
    await expect(refused).rejects.toMatchObject({ details: [{ field: 'body.operations.conditions[0]' }] });
    await expect(refused).rejects.not.toThrow(outside);
  });

  it('reaches only watchers whose scope lies within the caller\'s: get, list, update, status, delete', async () => {
    const r = region();
    const scope: AccessScope = [{ region: r }];
    const mine = await createWatcher(watcherInput(), scope);
    const narrower = await createWatcher(watcherInput(), [{ region: r, location: 'London' }]);
    const other = await createWatcher(watcherInput(), [{ region: unique('OTHER') }]);
    const unscoped = await createWatcher(watcherInput());

    expect((await getWithin(mine, scope)).id).toBe(mine);
    expect((await getWithin(narrower, scope)).id).toBe(narrower);
    for (const id of [other, unscoped]) {
      await expect(getWithin(id, scope)).rejects.toThrow(new NotFound(`Watcher ${id} not found`));
      await expect(updateWatcher(id, watcherInput({ severity: 1 }), scope)).rejects.toBeInstanceOf(NotFound);
      await expect(setWatcherActive(id, false, scope)).rejects.toBeInstanceOf(NotFound);
      await expect(removeWatcher(id, scope)).rejects.toBeInstanceOf(NotFound);
      expect((await watchers.get(id)).active).toBe(true);
    }
    const listed = ((await listWithin(scope, {})) as { id: string }[]).map((w) => w.id);
    expect(listed.sort()).toEqual([mine, narrower].sort());
    expect(((await listWithin([], {})) as { id: string }[]).map((w) => w.id)).toEqual(expect.arrayContaining([mine, other, unscoped]));

    expect((await updateWatcher(mine, watcherInput({ severity: 1 }), scope)).scope).toEqual(scope);
    expect((await setWatcherActive(mine, false, scope)).active).toBe(false);
    await removeWatcher(mine, scope);
    await expect(watchers.get(mine)).rejects.toBeInstanceOf(NotFound);
  });

  it('answers a scoped page of watchers from the watchers within only', async () => {
    const r = region();
    const scope: AccessScope = [{ region: r }];
    for (let i = 0; i < 3; i++) await createWatcher(watcherInput(), [{ region: unique('OTHER') }]);
    const mine = [await createWatcher(watcherInput(), scope), await createWatcher(watcherInput(), scope)];
    const page = (await listWithin(scope, { limit: 1 })) as Page<{ id: string }>;
    expect(page.items).toHaveLength(1);
    const rest = (await listWithin(scope, { limit: 10, cursor: page.nextCursor! })) as Page<{ id: string }>;
    expect([...page.items, ...rest.items].map((w) => w.id).sort()).toEqual([...mine].sort());
  });
});
