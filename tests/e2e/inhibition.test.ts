import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simulatedFleet } from '#lib/inventory/provider/simulated';
import type { Place } from '#lib/devices/types';
import { api } from '../support/api';
import { deviceWatcher } from '../support/fleet';

// Issue 28 item 2 over HTTP: a watcher inhibited by another watcher's firing alarm in the same
// location. The e2e server's fleet is still (240 simulated devices, seed 42) and alarms are
// evaluated only when asked (POST /alarms/evaluate); every assertion is about this file's watchers.
const fleet = simulatedFleet({ seed: 42, devices: 240 });
const byLocation = new Map<string, typeof fleet>();
for (const d of fleet.filter((x) => !x.status.connected)) {
  const key = `${d.details.region}/${d.details.location}`;
  byLocation.set(key, [...(byLocation.get(key) ?? []), d]);
}
const [parentDevice, childDevice] = [...byLocation.values()].find((list) => list.length >= 2)!;
const tag = randomUUID().slice(0, 8);
const childMail = `inhibited-${tag}@example.com`;

interface AlarmView extends Place {
  id: string;
  devicesn: string;
  suppressedBy?: Record<string, unknown>;
}
interface MailView {
  subject: string;
  text: string;
}
type ErrorBody = { message: string; errors?: { field: string; message: string }[] };

const offlineOf = (devicesn: string, description: string, email: string, extra: Record<string, unknown> = {}) => ({
  ...deviceWatcher(devicesn, email, { dashboard: `inhibit-${tag}`, description }),
  ...extra,
});
const evaluate = async () => expect((await api('POST', '/alarms/evaluate')).status).toBe(200);
const alarmsOf = async (watcherId: string) => (await api<AlarmView[]>('GET', `/alarms?watcherId=${watcherId}`)).body;
const mails = async () => (await api<MailView[]>('GET', `/alarms/outbox?to=${encodeURIComponent(childMail)}`)).body;
const fieldsOf = (res: { body: unknown }) => ((res.body as ErrorBody).errors ?? []).map((e) => e.field);

let parentId: string;
let childId: string;

beforeAll(async () => {
  parentId = (await api<string>('POST', '/watcher', { body: offlineOf(parentDevice!.devicesn, 'uplink down', `parent-${tag}@example.com`) })).body;
  const created = await api<string>('POST', '/watcher', {
    body: offlineOf(childDevice!.devicesn, 'codec offline', childMail, { inhibitedBy: { condition: 'watcher', watcherId: parentId, over: 'location' } }),
  });
  expect(created.status).toBe(200);
  childId = created.body;
  await evaluate();
});

afterAll(async () => {
  for (const id of [childId, parentId]) await api('DELETE', `/watcher/${id}`);
  await evaluate();
});

describe('a watcher inhibited by another watcher', () => {
  it('keeps inhibitedBy as sent', async () => {
    const res = await api<Record<string, unknown>>('GET', `/watcher/${childId}`);
    expect(res.body.inhibitedBy).toEqual({ condition: 'watcher', watcherId: parentId, over: 'location' });
  });

  it('opens its alarm marked suppressedBy while the parent fires in the location, and tells only the parent digest with the count', async () => {
    const [alarm] = await alarmsOf(childId);
    expect(alarm).toMatchObject({
      devicesn: childDevice!.devicesn,
      suppressedBy: { condition: 'watcher', watcherId: parentId, over: 'location', region: childDevice!.details.region, location: childDevice!.details.location, since: expect.any(String) },
    });
    expect(alarm!.suppressedBy).not.toHaveProperty('room');
    const [parentAlarm] = await alarmsOf(parentId);
    expect(parentAlarm).not.toHaveProperty('suppressedBy');
    const told = await mails();
    expect(told).toHaveLength(1);
    expect(told[0]!.subject).toContain('Suppressed: 1 device offline');
    expect(told[0]!.text).toContain(`location ${childDevice!.details.region} / ${childDevice!.details.location}: watcher "uplink down" firing; 1 alarm of watcher "codec offline" (Major) suppressed.`);
    await evaluate();
    expect(await mails()).toHaveLength(1);
  });

  it('tells the alarm once when the parent clears (its watcher switched off), and drops the mark', async () => {
    expect((await api('PUT', `/watcher/${parentId}/status`, { body: { active: false } })).status).toBe(200);
    await evaluate();
    await evaluate();
    const [alarm] = await alarmsOf(childId);
    expect(alarm).toBeDefined();
    expect(alarm).not.toHaveProperty('suppressedBy');
    const told = await mails();
    expect(told).toHaveLength(2);
    expect(told.filter((mail) => mail.text.includes(childDevice!.devicesn) && !mail.subject.includes('Suppressed'))).toHaveLength(1);
  });
});

describe('inhibitedBy refused (400, the field named)', () => {
  const post = (inhibitedBy: unknown) => api<ErrorBody>('POST', '/watcher', { body: offlineOf(childDevice!.devicesn, 'refused', childMail, { inhibitedBy }) });

  it.each([
    ['a percent of 0', { condition: 'locationOffline', percent: 0 }],
    ['a percent above 100', { condition: 'locationOffline', percent: 101 }],
    ['an unknown condition', { condition: 'regionOffline' }],
    ['a watcher condition without over', { condition: 'watcher', watcherId: 'abc' }],
    ['a stray field', { condition: 'roomOffline', percent: 10 }],
  ])('answers 400 for %s', async (_case, inhibitedBy) => {
    const res = await post(inhibitedBy);
    expect(res.status).toBe(400);
    expect(fieldsOf(res).some((field) => field.startsWith('body.inhibitedBy'))).toBe(true);
  });

  it('answers 400 for an unknown parent watcher', async () => {
    const res = await post({ condition: 'watcher', watcherId: randomUUID(), over: 'room' });
    expect(res.status).toBe(400);
    expect(fieldsOf(res)).toEqual(['body.inhibitedBy.watcherId']);
  });

  it('answers 400 for a watcher inhibited by itself, and for a cycle of two', async () => {
    const self = await api<ErrorBody>('PUT', `/watcher/${childId}`, {
      body: offlineOf(childDevice!.devicesn, 'codec offline', childMail, { inhibitedBy: { condition: 'watcher', watcherId: childId, over: 'room' } }),
    });
    expect(self.status).toBe(400);
    expect(self.body.message).toContain('itself');
    const cycle = await api<ErrorBody>('PUT', `/watcher/${parentId}`, {
      body: offlineOf(parentDevice!.devicesn, 'uplink down', `parent-${tag}@example.com`, { inhibitedBy: { condition: 'watcher', watcherId: childId, over: 'room' } }),
    });
    expect(cycle.status).toBe(400);
    expect(fieldsOf(cycle)).toEqual(['body.inhibitedBy.watcherId']);
  });

  it('accepts the built-in conditions', async () => {
    for (const inhibitedBy of [{ condition: 'roomOffline' }, { condition: 'locationOffline', percent: 100 }]) {
      const res = await post(inhibitedBy);
      expect(res.status).toBe(200);
      await api('DELETE', `/watcher/${res.body}`);
    }
  });
});
