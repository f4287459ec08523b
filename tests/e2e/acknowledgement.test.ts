import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { simulatedFleet } from '#lib/inventory/provider/simulated';
import { api } from '../support/api';
import { deviceWatcher } from '../support/fleet';
import { adminToken } from '../support/principals';

// Issue 28 item 3 over HTTP: ackUntil on POST /alarms/{id}/ack, and the ack/unack of an alarm, with
// who and when, in its history once it cleared. The watchers of this file target their own
// offline devices of the still simulated fleet (seed 42), and mail an address of their own.
const fleet = simulatedFleet({ seed: 42, devices: 240 });
const [untilDevice, historyDevice] = fleet.filter((d) => !d.status.connected).slice(20, 22) as [(typeof fleet)[0], (typeof fleet)[0]];
const email = `ack-${randomUUID().slice(0, 8)}@example.com`;
const HOUR = 3_600_000;
const iso = (ms: number) => new Date(ms).toISOString();

type ErrorBody = { message: string; errors?: { field: string; message: string }[] };
type Alarm = { id: string; state: string; acknowledgedAt?: string; acknowledgedBy?: string; ackComment?: string; ackUntil?: string };
type AckEvent = { action: string; at: string; by: string; comment?: string; ackUntil?: string; lapsed?: true };
type History = { id: string; reason: string; acknowledgedBy?: string; acknowledgements?: AckEvent[] };

const watcherIds: string[] = [];
const createWatcher = async (devicesn: string) => {
  const body = deviceWatcher(devicesn, email, { dashboard: 'ack-e2e', description: 'ack e2e' });
  const res = await api<string>('POST', '/watcher', { body });
  expect(res.status).toBe(200);
  watcherIds.push(res.body);
  return res.body;
};
const evaluate = async () => expect((await api('POST', '/alarms/evaluate')).status).toBe(200);
const fields = (res: { body: unknown }) => ((res.body as ErrorBody).errors ?? []).map((e) => e.field);

let untilWatcher: string;
let historyWatcher: string;
beforeAll(async () => {
  untilWatcher = await createWatcher(untilDevice.devicesn);
  historyWatcher = await createWatcher(historyDevice.devicesn);
  await evaluate();
});

afterAll(async () => {
  for (const id of watcherIds) await api('DELETE', `/watcher/${id}`);
  await evaluate();
});

describe('POST /alarms/{id}/ack with ackUntil', () => {
  const id = () => `${untilWatcher}:${untilDevice.devicesn}`;

  it('acknowledges until a time ahead, answered as ackUntil and shown acknowledged', async () => {
    const until = iso(Date.now() + 2 * HOUR);
    const res = await api<Alarm>('POST', `/alarms/${id()}/ack`, { body: { comment: 'vendor ticket', ackUntil: until } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: id(), acknowledgedBy: 'api-key', ackComment: 'vendor ticket', ackUntil: until });
    const listed = (await api<Alarm[]>('GET', `/alarms?watcherId=${untilWatcher}&acknowledged=true`)).body;
    expect(listed).toEqual([expect.objectContaining({ id: id(), ackUntil: until })]);
  });

  it.each([
    ['in the past', () => iso(Date.now() - HOUR)],
    ['more than 30 days ahead', () => iso(Date.now() + 31 * 24 * HOUR)],
    ['not a date-time', () => 'tomorrow'],
  ])('answers 422 naming body.ackUntil for an ackUntil %s', async (_, until) => {
    const res = await api<ErrorBody>('POST', `/alarms/${id()}/ack`, { body: { ackUntil: until() } });
    expect(res.status).toBe(422);
    expect(fields(res)).toEqual(['body.ackUntil']);
  });

  it('answers 404 for an unknown alarm even with a valid ackUntil, also for the longest id of 4-byte characters', async () => {
    const body = { ackUntil: iso(Date.now() + HOUR) };
    expect((await api('POST', `/alarms/${untilWatcher}:NOPE-${randomUUID()}/ack`, { body })).status).toBe(404);
    const longest = encodeURIComponent(`${untilWatcher}:${'\u{1F600}'.repeat(399 - untilWatcher.length)}`);
    expect((await api('POST', `/alarms/${longest}/ack`, { body })).status).toBe(404);
  });
});

describe('ack and unack in GET /alarms/history', () => {
  it('records who acknowledged and removed it, when, and with what, once the alarm cleared; CSV columns unchanged', async () => {
    const id = `${historyWatcher}:${historyDevice.devicesn}`;
    const token = await adminToken();
    const until = iso(Date.now() + HOUR);
    expect((await api('POST', `/alarms/${id}/ack`, { token, body: { comment: 'mine', ackUntil: until } })).status).toBe(200);
    expect((await api('DELETE', `/alarms/${id}/ack`)).status).toBe(200);
    expect((await api('PUT', `/watcher/${historyWatcher}/status`, { body: { active: false } })).status).toBe(200);
    await evaluate();

    const history = await api<{ items: History[] }>('GET', `/alarms/history?watcherId=${historyWatcher}`);
    expect(history.status).toBe(200);
    const [record] = history.body.items;
    expect(record).toMatchObject({ id, reason: 'watcher inactive' });
    expect(record).not.toHaveProperty('acknowledgedBy');
    expect(record!.acknowledgements).toEqual([
      { action: 'ack', by: inject('admin').username, comment: 'mine', ackUntil: until, at: expect.any(String) },
      { action: 'unack', by: 'api-key', at: expect.any(String) },
    ]);
    const csv = await api<string>('GET', `/alarms/history?watcherId=${historyWatcher}&format=csv`);
    expect(csv.status).toBe(200);
    expect(String(csv.body).split('\r\n')[0]).toBe(
      'id,watcherId,severity,devicesn,deviceid,region,location,room,raisedAt,clearedAt,durationSeconds,reason,description,acknowledgedAt,acknowledgedBy,ackComment,notifiedRaised,notifiedCleared',
    );
  });
});
