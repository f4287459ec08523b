import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { withSilences } from '#lib/alarms/query';
import { MAX_SILENCED_BY } from '#lib/alarms/pure/silences';
import type { AlarmView } from '#lib/alarms/repository/alarms';
import { doc, tableName } from '#lib/store/client';
import * as silences from '#lib/alarms/repository/silences';
import * as watchers from '#lib/watchers/repository';
import { handler as createSilence } from '../../functions/silences/create';
import { handler as endSilence } from '../../functions/silences/end';
import { handler as listSilences } from '../../functions/silences/list';
import { handler as createWatcher } from '../../functions/watchers/create';
import { handler as removeWatcher } from '../../functions/watchers/remove';
import { apiEvent, jsonEvent, lambdaContext } from '../support/events';
import { watcherInput } from '../support/fleet';
import { CapEntity } from '#lib/store/caps';

type Handler = typeof createSilence;
const call = async (h: Handler, event: Parameters<Handler>[0]) => {
  const res = await h(event, lambdaContext());
  return { status: res.statusCode, body: res.body ? JSON.parse(res.body) : undefined };
};
const HOUR = 3600_000;
const iso = (ms: number) => new Date(ms).toISOString();
const silenceBody = (matchers: Record<string, string>, extra: Record<string, unknown> = {}) => ({ matchers, endsAt: iso(Date.now() + HOUR), comment: 'cap test', ...extra });

const saved = { ...process.env };
afterEach(() => {
  process.env.SILENCES_MAX_ACTIVE = saved.SILENCES_MAX_ACTIVE;
  process.env.WATCHERS_MAX = saved.WATCHERS_MAX;
  if (saved.SILENCES_MAX_ACTIVE === undefined) delete process.env.SILENCES_MAX_ACTIVE;
  if (saved.WATCHERS_MAX === undefined) delete process.env.WATCHERS_MAX;
});

/** This file has its own table: these are the only silences and watchers in it. */
describe('caps per stage, race-safe (issue 24 item 14)', () => {
  it('parallel silence creates never pass SILENCES_MAX_ACTIVE; the rest are 409; ending one frees a place', async () => {
    const before = (await silences.current(iso(Date.now()))).length;
    process.env.SILENCES_MAX_ACTIVE = String(before + 5);
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => call(createSilence, jsonEvent(silenceBody({ devicesn: `CAP-${i}` })))));
    expect(answers.filter((a) => a.status === 201)).toHaveLength(5);
    const refused = answers.filter((a) => a.status !== 201);
    expect(refused.every((a) => a.status === 409)).toBe(true);
    expect(refused[0]?.body.message).toMatch(/SILENCES_MAX_ACTIVE/);
    expect((await silences.current(iso(Date.now()))).length).toBe(before + 5);

    const ended = answers.find((a) => a.status === 201)!.body.id as string;
    expect((await call(endSilence, apiEvent({ httpMethod: 'DELETE', pathParameters: { id: ended } }))).status).toBe(200);
    expect((await call(createSilence, jsonEvent(silenceBody({ devicesn: 'CAP-after-end' })))).status).toBe(201);
    expect((await call(createSilence, jsonEvent(silenceBody({ devicesn: 'CAP-over' })))).status).toBe(409);
  });

  it('parallel watcher creates never pass WATCHERS_MAX; deleting one frees a place', async () => {
    const before = (await watchers.list()).length;
    process.env.WATCHERS_MAX = String(before + 4);
    const answers = await Promise.all(Array.from({ length: 12 }, () => call(createWatcher, jsonEvent(watcherInput()))));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(4);
    expect(answers.filter((a) => a.status === 409)).toHaveLength(8);
    expect((await watchers.list()).length).toBe(before + 4);
    const id = answers.find((a) => a.status === 200)!.body as string;
    expect((await call(removeWatcher, apiEvent({ httpMethod: 'DELETE', pathParameters: { watcherid: id } }))).status).toBe(200);
    expect((await call(createWatcher, jsonEvent(watcherInput()))).status).toBe(200);
    expect((await call(createWatcher, jsonEvent(watcherInput()))).status).toBe(409);
  });

  it('a place held by a create that never wrote (a crash) is healed when the cap is reached', async () => {
    const count = (await watchers.list()).length;
    process.env.WATCHERS_MAX = String(count + 1);
    // a member admitted two minutes ago whose watcher was never stored
    const { Attributes } = await doc.send(new DeleteCommand({ TableName: tableName(), Key: CapEntity.key('watchers'), ReturnValues: 'ALL_OLD' }));
    const members = { ...(Attributes?.members as object), [randomUUID()]: { at: Date.now() - 120_000 } };
    await doc.send(new PutCommand({ TableName: tableName(), Item: CapEntity.item('watchers', { members }) }));
    expect((await call(createWatcher, jsonEvent(watcherInput()))).status).toBe(200);
    expect((await watchers.list()).length).toBe(count + 1);
  });

  it('a stage without a roster (watchers stored before the caps) counts its stored watchers', async () => {
    const count = (await watchers.list()).length;
    await doc.send(new DeleteCommand({ TableName: tableName(), Key: CapEntity.key('watchers') }));
    process.env.WATCHERS_MAX = String(count);
    expect((await call(createWatcher, jsonEvent(watcherInput()))).status).toBe(409);
    process.env.WATCHERS_MAX = String(count + 1);
    expect((await call(createWatcher, jsonEvent(watcherInput()))).status).toBe(200);
  });
});

describe('silences: answers and input (issue 24 item 14)', () => {
  it('silencedBy is answered capped, with the count', async () => {
    process.env.SILENCES_MAX_ACTIVE = '1000';
    const room = `Room-${randomUUID()}`;
    await Promise.all(Array.from({ length: MAX_SILENCED_BY + 5 }, () => call(createSilence, jsonEvent(silenceBody({ room })))));
    const alarm = { id: 'w:sn', watcherId: 'w', devicesn: 'sn', region: 'EMEA', location: 'L', room } as unknown as AlarmView;
    const [answered] = await withSilences([alarm]);
    expect(answered?.silencedBy).toHaveLength(MAX_SILENCED_BY);
    expect(answered?.silencedByCount).toBe(MAX_SILENCED_BY + 5);
  });

  it('?all=true answers a page at a time, following signed cursors', async () => {
    process.env.SILENCES_MAX_ACTIVE = '1000';
    const all: string[] = [];
    let cursor: string | null = null;
    do {
      const query: Record<string, string> = { all: 'true', limit: '7', ...(cursor ? { cursor } : {}) };
      const res = await call(listSilences, apiEvent({ httpMethod: 'GET', queryStringParameters: query }));
      expect(res.status).toBe(200);
      expect(res.body.items.length).toBeLessThanOrEqual(7);
      all.push(...res.body.items.map((s: { id: string }) => s.id));
      cursor = res.body.nextCursor;
    } while (cursor);
    expect(new Set(all).size).toBe((await silences.all()).length);
    // without a limit too: one page, not every kept silence
    const first = await call(listSilences, apiEvent({ httpMethod: 'GET', queryStringParameters: { all: 'true' } }));
    expect(first.body).toEqual({ items: expect.any(Array), nextCursor: null });
    // the bare array of active and future ones stays
    expect(Array.isArray((await call(listSilences, apiEvent({ httpMethod: 'GET' }))).body)).toBe(true);
    const forged = await call(listSilences, apiEvent({ httpMethod: 'GET', queryStringParameters: { all: 'true', cursor: 'abc.def' } }));
    expect(forged.status).toBe(422);
  });

  it.each([
    ['region "all"', silenceBody({ region: 'all' }), 'body.matchers.region'],
    ['location "all"', silenceBody({ region: 'EMEA', location: 'all' }), 'body.matchers.location'],
    ['startsAt beyond the longest silence', silenceBody({ room: 'A' }, { startsAt: iso(Date.now() + 91 * 24 * HOUR), endsAt: iso(Date.now() + 92 * 24 * HOUR) }), 'body.startsAt'],
    ['a NUL in the comment', silenceBody({ room: 'A' }, { comment: 'ok\u0000then' }), 'body.comment'],
    ['an escape in the comment', silenceBody({ room: 'A' }, { comment: 'bell\u0007' }), 'body.comment'],
  ])('refuses %s with 400 naming the field', async (_case, body, field) => {
    const res = await call(createSilence, jsonEvent(body));
    expect(res.status).toBe(400);
    expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
  });

  it('a comment may still break lines', async () => {
    process.env.SILENCES_MAX_ACTIVE = '1000';
    expect((await call(createSilence, jsonEvent(silenceBody({ room: 'B' }, { comment: 'line one\nline two\tindented' })))).status).toBe(201);
  });
});
