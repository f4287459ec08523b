import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { api, type ApiResponse } from '../support/api';

/**
 * Many clients writing the same records at once: no 5xx, the final state is exactly one of
 * the writes (never a mix of two), and counts agree with the records listed.
 */
const N = 100;
const indexes = Array.from({ length: N }, (_, i) => i);
const statuses = (answers: ApiResponse[]) => [...new Set(answers.map((a) => a.status))].sort();
// a per-file id range, far from the other files' ids
const base = 700_000 + Math.floor(Math.random() * 1000) * 100;

describe('concurrent writes to one record', () => {
  it(`${N} parallel upserts of one filter leave one whole write`, async () => {
    const id = base + 1;
    const answers = await Promise.all(
      indexes.map((i) => api('POST', `/filters/${id}`, { body: { name: `name-${i}`, description: `description-${i}` } })),
    );
    expect(statuses(answers)).toEqual([200]);
    const { body } = await api<{ name: string; description: string }>('GET', `/filters/${id}`);
    const winner = body.name.replace('name-', '');
    expect(body.description).toBe(`description-${winner}`);
  });

  it(`${N} parallel upserts of one filters configuration leave one whole write`, async () => {
    const id = base + 2;
    const answers = await Promise.all(
      indexes.map((i) =>
        api('POST', `/filtersConfig/${id}`, {
          body: { region: { regionName: `R-${i}`, location: [{ locationName: `L-${i}`, room: [{ roomName: `Room-${i}` }] }] } },
        }),
      ),
    );
    expect(statuses(answers)).toEqual([200]);
    const { body } = await api<{ region: string; locations: { locationName: string }[] }>('GET', `/filtersConfig/${id}`);
    const winner = body.region.replace('R-', '');
    expect(body.locations).toEqual([{ locationName: `L-${winner}` }]);
  });

  it(`${N} parallel full updates of one watcher: each wins or gets 409, the last winner stands`, async () => {
    const rule = (i: number) => ({
      user: 'concurrency',
      dashboard: `dash-${i}`,
      service: 'svc',
      type: 'offline',
      allDevices: false,
      devicesId: [`no-such-device-${randomUUID()}`],
      severity: 4,
      operations: { type: 'device', operatorType: 'AND', conditions: [{ operator: '==', value: 'false', element: 'status.connected' }] },
      description: `description-${i}`,
      sendEmail: false,
    });
    const created = await api<string>('POST', '/watcher', { body: rule(-1) });
    expect(created.status).toBe(200);
    const answers = await Promise.all(indexes.map((i) => api<{ dashboard: string }>('PUT', `/watcher/${created.body}`, { body: rule(i) })));
    expect(statuses(answers).every((s) => s === 200 || s === 409)).toBe(true);
    const winners = answers.filter((a) => a.status === 200).map((a) => a.body.dashboard);
    expect(winners.length).toBeGreaterThan(0);
    const { body } = await api<{ dashboard: string; description: string }>('GET', `/watcher/${created.body}`);
    expect(winners).toContain(body.dashboard);
    expect(body.description).toBe(`description-${body.dashboard.replace('dash-', '')}`);
    await api('DELETE', `/watcher/${created.body}`);
  });
});

describe('keep-list deletes racing upserts', () => {
  it('never fail, keep counts equal to the records, and converge when repeated', async () => {
    const kept = Array.from({ length: 10 }, (_, i) => base + 10 + i);
    const extra = Array.from({ length: 30 }, (_, i) => base + 40 + i);
    const upsert = (ids: number[]) => api('POST', '/filters', { body: ids.map((id) => ({ id, name: `f-${id}` })) });
    expect((await upsert(kept)).status).toBe(200);

    const answers = await Promise.all([
      ...extra.map((id) => upsert([id])),
      ...Array.from({ length: 5 }, () => api('DELETE', '/filters', { body: kept })),
    ]);
    expect(statuses(answers)).toEqual([200]);

    const listed = await api<{ id: number }[]>('GET', '/filters');
    const count = await api<number>('GET', '/filters/count');
    expect(count.body).toBe(listed.body.length);
    for (const { id } of listed.body) expect([...kept, ...extra]).toContain(id);
    for (const id of kept) expect(listed.body.map((f) => f.id)).toContain(id);

    expect((await api('DELETE', '/filters', { body: kept })).status).toBe(200);
    const after = await api<{ id: number }[]>('GET', '/filters');
    expect(after.body.map((f) => f.id).sort()).toEqual([...kept].sort());
    expect((await api<number>('GET', '/filters/count')).body).toBe(kept.length);
  });
});
