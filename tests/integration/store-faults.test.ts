import { afterEach, describe, expect, it } from 'vitest';
import { INTERVAL_FIELDS } from '#lib/config/intervals/types';
import { intervals } from '#lib/config/intervals/repository';
import { handler as create } from '../../functions/intervals/create';
import { handler as update } from '../../functions/intervals/update';
import { handler as list } from '../../functions/intervals/list';
import { apiEvent, jsonEvent, lambdaContext } from '../support/events';
import { injectFault } from '../support/faults';
import { watcherInput } from '../support/fleet';

const settings = Object.fromEntries(INTERVAL_FIELDS.map((f) => [f, 60]));
let clear: () => void = () => {};
afterEach(() => clear());

const call = async (h: typeof create, event = apiEvent()) => {
  const res = await h(event, lambdaContext());
  return { status: res.statusCode, body: res.body ? JSON.parse(res.body) : undefined, headers: res.headers };
};

describe('store faults reach the client as JSON, never as a false success', () => {
  it.each(['throttle', 'timeout'] as const)('a %s on the write answers 503 and stores nothing; a retry converges', async (fault) => {
    const before = (await intervals.list()).length;
    // an interval is created in one transaction with its audit record
    clear = injectFault(fault, 'TransactWriteCommand');
    const failed = await call(create, jsonEvent(settings));
    expect(failed.status).toBe(503);
    expect(failed.headers?.['retry-after']).toBe('1');
    expect(failed.body).toEqual({ message: 'The service is busy; retry shortly' });
    expect((await intervals.list()).length).toBe(before);

    const retried = await call(create, jsonEvent(settings));
    expect(retried.status).toBe(200);
    expect(await intervals.get(retried.body.id)).toEqual(retried.body);
  });

  it('a failed condition on create answers 409 JSON and stores nothing', async () => {
    const before = (await intervals.list()).length;
    clear = injectFault('condition', 'TransactWriteCommand');
    const res = await call(create, jsonEvent(settings));
    expect(res.status).toBe(409);
    expect(typeof res.body.message).toBe('string');
    expect((await intervals.list()).length).toBe(before);
  });

  it('a throttled update answers 503 and leaves the record as it was', async () => {
    const record = await intervals.create(settings as never);
    clear = injectFault('throttle', 'TransactWriteCommand');
    const res = await call(update, jsonEvent({ intervalDeviceStatus: 5 }, { pathParameters: { id: String(record.id) } }));
    expect(res.status).toBe(503);
    expect(await intervals.get(record.id)).toEqual(record);
  });

  it('a throttled read answers 503 JSON', async () => {
    clear = injectFault('throttle', 'QueryCommand');
    const res = await call(list);
    expect(res.status).toBe(503);
    expect(res.body.message).toBeTypeOf('string');
  });
});

describe('store faults on other areas', () => {
  const watcherBody = watcherInput({ user: 'faults' });

  it('a throttled watcher create answers 503 and stores no watcher; the retry creates one', async () => {
    const watchers = await import('#lib/watchers/repository');
    const { handler: createWatcher } = await import('../../functions/watchers/create');
    const before = (await watchers.list()).length;
    clear = injectFault('throttle', 'PutCommand');
    const failed = await call(createWatcher, jsonEvent(watcherBody));
    expect(failed.status).toBe(503);
    expect((await watchers.list()).length).toBe(before);

    const retried = await call(createWatcher, jsonEvent(watcherBody));
    expect(retried.status).toBe(200);
    expect((await watchers.list()).length).toBe(before + 1);
  });

  it('a keep-list delete retries a throttled batch; one the store keeps refusing answers 503, never 200; repeating it converges', async () => {
    const { filterRecords } = await import('#lib/config/filterRecords/repository');
    const { handler: keepOnly } = await import('../../functions/filterRecords/keepOnly');
    const { handler: upsertList } = await import('../../functions/filterRecords/upsertList');
    expect((await call(upsertList, jsonEvent([1, 2, 3].map((id) => ({ id, name: `f${id}` }))))).status).toBe(200);
    // throttled once: retried with backoff (DESIGN §3), everything lands
    clear = injectFault('throttle', 'BatchWriteCommand', 1);
    expect((await call(keepOnly, jsonEvent([1, 2]))).status).toBe(200);
    clear();
    expect((await filterRecords.list()).map((f) => f.id)).toEqual([1, 2]);
    // refused round after round: 503, never a 200 for a partial write
    clear = injectFault('throttle', 'BatchWriteCommand', 1_000);
    const failed = await call(keepOnly, jsonEvent([1]));
    expect(failed.status).toBe(503);
    clear();
    const repeated = await call(keepOnly, jsonEvent([1]));
    expect(repeated.status).toBe(200);
    expect((await filterRecords.list()).map((f) => f.id)).toEqual([1]);
  });
});
