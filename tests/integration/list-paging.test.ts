import { afterEach, describe, expect, it } from 'vitest';
import { filterConfigs } from '#lib/config/filterConfigs/repository';
import * as watchers from '#lib/watchers/repository';
import { caps, LIST_ANSWER_BYTES, recordShare } from '#lib/shared/caps';
import { jsonBytes } from '#lib/shared/sizes';
import { MAX_ANSWER_BYTES } from '#lib/http/respond';
import { handler as listWatchers } from '../../functions/watchers/list';
import { handler as createWatcher } from '../../functions/watchers/create';
import { handler as updateWatcher } from '../../functions/watchers/update';
import { handler as listConfigs } from '../../functions/filterConfigs/list';
import { handler as upsertConfig } from '../../functions/filterConfigs/upsert';
import { handler as upsertConfigs } from '../../functions/filterConfigs/upsertList';
import { handler as removeConfig } from '../../functions/filterConfigs/remove';
import { apiEvent, jsonEvent, lambdaContext } from '../support/events';
import { watcherInput } from '../support/fleet';

type Handler = typeof listWatchers;
const call = async (h: Handler, event: Parameters<Handler>[0]) => {
  const res = await h(event, lambdaContext());
  return { status: res.statusCode, body: res.body ? JSON.parse(res.body) : undefined };
};
const get = (query?: Record<string, string>) => apiEvent({ httpMethod: 'GET', queryStringParameters: query ?? null });

/** Every item of a paged list, following nextCursor, `limit` at a time. */
const allPages = async (h: Handler, limit: number) => {
  const items: { id: unknown }[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const res = await call(h, get({ limit: String(limit), ...(cursor ? { cursor } : {}) }));
    expect(res.status).toBe(200);
    expect(res.body.items.length).toBeLessThanOrEqual(limit);
    items.push(...res.body.items);
    cursor = res.body.nextCursor;
    pages++;
  } while (cursor);
  return { items, pages };
};

const saved = process.env.FILTER_CONFIGS_MAX;
afterEach(() => {
  if (saved === undefined) delete process.env.FILTER_CONFIGS_MAX;
  else process.env.FILTER_CONFIGS_MAX = saved;
});

describe('the caps keep the unpaged lists under Lambda’s 6 MB answer (issue 24 item 7)', () => {
  it('the most watchers and configurations a stage holds, each at its largest, fit one answer', () => {
    for (const max of [caps.watchers(), caps.filterConfigs()]) {
      expect(max * recordShare(max)).toBeLessThanOrEqual(LIST_ANSWER_BYTES);
    }
    expect(LIST_ANSWER_BYTES).toBeLessThan(MAX_ANSWER_BYTES);
  });

  it('a watcher that would answer more than its share of GET /watcher/all is 400, on create and on PUT', async () => {
    const share = recordShare(caps.watchers());
    const wide = (n: number) => Array.from({ length: n }, (_, i) => `${'中'.repeat(60)}-${i}`);
    const big = watcherInput({ allDevices: false, devicesId: wide(200) });
    expect(jsonBytes(big)).toBeGreaterThan(share);
    const refused = await call(createWatcher, jsonEvent(big));
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toEqual([{ field: 'body', message: expect.stringContaining('WATCHERS_MAX') }]);

    const created = await call(createWatcher, jsonEvent(watcherInput({ allDevices: false, devicesId: wide(50) })));
    expect(created.status).toBe(200);
    const put = await call(updateWatcher, jsonEvent(big, { httpMethod: 'PUT', pathParameters: { watcherid: created.body } }));
    expect(put.status).toBe(400);
  });

  it('a configuration that would answer more than its share of GET /filtersConfig is 400', async () => {
    const share = recordShare(caps.filterConfigs());
    const locations = Array.from({ length: 150 }, (_, i) => ({ locationName: `${'中'.repeat(120)}-${i}`, room: [] }));
    expect(jsonBytes(locations)).toBeGreaterThan(share);
    const res = await call(upsertConfig, jsonEvent({ region: { regionName: 'EMEA', location: locations } }, { pathParameters: { id: '900' } }));
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([{ field: 'body.region.location', message: expect.stringContaining('FILTER_CONFIGS_MAX') }]);
  });
});

describe('GET /watcher/all and GET /filtersConfig page with signed cursors (issue 24 item 7)', () => {
  it('watchers: the bare array without limit; pages that add up to it with limit', async () => {
    for (let i = 0; i < 7; i++) expect((await call(createWatcher, jsonEvent(watcherInput({ description: `paged ${i}` })))).status).toBe(200);
    const whole = await call(listWatchers, get());
    expect(Array.isArray(whole.body)).toBe(true);
    const { items, pages } = await allPages(listWatchers, 3);
    expect(pages).toBeGreaterThanOrEqual(3);
    expect(items.map((w) => w.id).sort()).toEqual((whole.body as { id: string }[]).map((w) => w.id).sort());
    expect(items).toHaveLength((await watchers.list()).length);
  });

  it('configurations: the bare array without limit; pages that add up to it with limit', async () => {
    const records = Array.from({ length: 8 }, (_, i) => ({ id: 100 + i, region: 'EMEA', locations: [{ locationName: `L${i}` }] }));
    expect((await call(upsertConfigs, jsonEvent(records))).status).toBe(200);
    const whole = await call(listConfigs, get());
    expect(Array.isArray(whole.body)).toBe(true);
    const { items } = await allPages(listConfigs, 3);
    expect(items).toEqual(whole.body);
  });

  it.each([
    ['watchers', listWatchers],
    ['configurations', listConfigs],
  ] as const)('%s: a cursor not answered for this list is 422; a bad limit is 400', async (_name, h) => {
    const other = await call(h === listWatchers ? listConfigs : listWatchers, get({ limit: '1' }));
    expect(other.body.nextCursor).toEqual(expect.any(String));
    const forged = await call(h, get({ limit: '1', cursor: other.body.nextCursor }));
    expect(forged.status).toBe(422);
    expect(forged.body.errors).toEqual([{ field: 'queryStringParameters.cursor', message: expect.any(String) }]);
    expect((await call(h, get({ limit: '0' }))).status).toBe(400);
  });
});

describe('configurations per stage are capped, race-safe (issue 24 item 7)', () => {
  it('parallel upserts of new ids never pass FILTER_CONFIGS_MAX; existing ones still upsert; a delete frees a place', async () => {
    const before = (await filterConfigs.list()).length;
    process.env.FILTER_CONFIGS_MAX = String(before + 3);
    const tree = { region: { regionName: 'EMEA', location: [{ locationName: 'Paris', room: [{ roomName: 'P1' }] }] } };
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => call(upsertConfig, jsonEvent(tree, { pathParameters: { id: String(500 + i) } }))));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(3);
    expect(answers.filter((a) => a.status === 409)).toHaveLength(7);
    expect(answers.find((a) => a.status === 409)?.body.message).toMatch(/FILTER_CONFIGS_MAX/);
    expect((await filterConfigs.list()).length).toBe(before + 3);

    const stored = (await filterConfigs.list()).find((c) => c.id >= 500)!;
    expect((await call(upsertConfig, jsonEvent(tree, { pathParameters: { id: String(stored.id) } }))).status).toBe(200);
    expect((await call(upsertConfigs, jsonEvent([{ id: 600, region: 'X', locations: [] }]))).status).toBe(409);
    expect((await call(removeConfig, apiEvent({ httpMethod: 'DELETE', pathParameters: { id: String(stored.id) } }))).status).toBe(200);
    expect((await call(upsertConfigs, jsonEvent([{ id: 600, region: 'X', locations: [] }]))).status).toBe(200);
  });
});
