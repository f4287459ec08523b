import { describe, expect, it } from 'vitest';
import * as watchers from '#lib/watchers/repository';
import { Conflict, NotFound } from '#lib/shared/errors';
import type { WatcherInput } from '#lib/watchers/types';

const input = (overrides: Partial<WatcherInput> = {}): WatcherInput => ({
  user: 'ana',
  dashboard: 'ops',
  service: 'video',
  type: 'connectivity',
  allDevices: true,
  severity: 1,
  operations: { type: 'device', operatorType: 'AND', conditions: [{ operator: '==', value: 'false', element: 'deviceconnected' }] },
  sendEmail: false,
  ...overrides,
});

describe('watchers repository', () => {
  it('creates an active watcher with a UUID id and the optional fields filled', async () => {
    const id = await watchers.create(input());
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const stored = await watchers.get(id);
    expect(stored).toEqual({
      id,
      ...input(),
      devicesId: [],
      description: '',
      emails: [],
      pendingSeconds: 0,
      active: true,
      createdAt: expect.any(String),
      updatedAt: stored.createdAt,
    });
  });

  it('lists every stored watcher', async () => {
    const a = await watchers.create(input({ user: 'list-a' }));
    const b = await watchers.create(input({ user: 'list-b' }));
    const ids = (await watchers.list()).map((w) => w.id);
    expect(ids).toEqual(expect.arrayContaining([a, b]));
  });

  it('reports an unknown id as NotFound for get, update, status and delete', async () => {
    await expect(watchers.get('nope')).rejects.toBeInstanceOf(NotFound);
    await expect(watchers.update('nope', input())).rejects.toBeInstanceOf(NotFound);
    await expect(watchers.setActive('nope', false)).rejects.toBeInstanceOf(NotFound);
    await expect(watchers.remove('nope')).rejects.toBeInstanceOf(NotFound);
    await expect(watchers.get('nope')).rejects.toThrow('Watcher nope not found');
  });

  it('replaces the whole rule on update, keeping id, active and createdAt', async () => {
    const id = await watchers.create(input({ description: 'old', devicesId: ['d1'] }));
    await watchers.setActive(id, false);
    const before = await watchers.get(id);
    const updated = await watchers.update(id, input({ severity: 3, dashboard: 'noc' }));
    expect(updated).toEqual({ ...before, ...input({ severity: 3, dashboard: 'noc' }), description: '', devicesId: [], emails: [], updatedAt: expect.any(String) });
    expect(updated.active).toBe(false);
    expect(await watchers.get(id)).toEqual(updated);
  });

  it('switches active off and on, answering the updated watcher', async () => {
    const id = await watchers.create(input());
    expect((await watchers.setActive(id, false)).active).toBe(false);
    expect((await watchers.get(id)).active).toBe(false);
    expect((await watchers.setActive(id, true)).active).toBe(true);
  });

  it('lets exactly one of two updates from the same read win; the other is a Conflict', async () => {
    const id = await watchers.create(input());
    const read = await watchers.read(id);
    const results = await Promise.allSettled([
      watchers.replace(read, input({ dashboard: 'first' })),
      watchers.replace(read, input({ dashboard: 'second' })),
    ]);
    const won = results.filter((r) => r.status === 'fulfilled');
    const lost = results.filter((r) => r.status === 'rejected');
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(1);
    expect((lost[0] as PromiseRejectedResult).reason).toBeInstanceOf(Conflict);
    expect(await watchers.get(id)).toEqual((won[0] as PromiseFulfilledResult<unknown>).value);
  });

  it('refuses an update read before a status change instead of undoing it', async () => {
    const id = await watchers.create(input());
    const read = await watchers.read(id);
    await watchers.setActive(id, false);
    await expect(watchers.replace(read, input({ dashboard: 'stale' }))).rejects.toBeInstanceOf(Conflict);
    expect(await watchers.get(id)).toMatchObject({ active: false, dashboard: 'ops' });
  });

  it('never loses an update among concurrent PUTs: each one either lands or is a Conflict', async () => {
    const id = await watchers.create(input());
    const results = await Promise.allSettled(
      Array.from({ length: 5 }, (_, i) => watchers.update(id, input({ dashboard: `race-${i}` }))),
    );
    const won = results.filter((r): r is PromiseFulfilledResult<Awaited<ReturnType<typeof watchers.update>>> => r.status === 'fulfilled');
    for (const r of results) if (r.status === 'rejected') expect(r.reason).toBeInstanceOf(Conflict);
    expect(won.length).toBeGreaterThanOrEqual(1);
    const { version } = await watchers.read(id);
    expect(version).toBe(1 + won.length);
  });

  it('deletes once, then reports the id unknown', async () => {
    const id = await watchers.create(input());
    await watchers.remove(id);
    await expect(watchers.get(id)).rejects.toBeInstanceOf(NotFound);
    await expect(watchers.remove(id)).rejects.toBeInstanceOf(NotFound);
  });

  it('reads one alarm-configuration field of every watcher', async () => {
    await watchers.create(input({ dashboard: 'field-dash', service: 'field-svc', type: 'field-type' }));
    expect(await watchers.fieldValues('dashboard')).toContain('field-dash');
    expect(await watchers.fieldValues('service')).toContain('field-svc');
    expect(await watchers.fieldValues('type')).toContain('field-type');
    expect(await watchers.fieldValues('type')).not.toContain('Watcher');
  });

  it('fails (for the wrapper to answer 500) when the table does not exist', async () => {
    const table = process.env.TABLE_NAME;
    process.env.TABLE_NAME = 'no-such-table';
    try {
      await expect(watchers.fieldValues('dashboard')).rejects.toMatchObject({ name: 'ResourceNotFoundException' });
    } finally {
      process.env.TABLE_NAME = table;
    }
  });
});
