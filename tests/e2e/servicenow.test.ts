import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simulatedFleet } from '#lib/inventory/provider/simulated';
import { SERVICENOW_FAKE_CREDENTIALS, startServiceNowFake, type ServiceNowFake } from '../../scripts/local/fakes/servicenow';
import { api } from '../support/api';
import { offlineWatcher } from '../support/fleet';

/*
 * A ServiceNow channel through serverless offline, against the ServiceNow fake on loopback (the
 * e2e server runs with ALLOW_LOCAL_WEBHOOKS=true, like npm start): a firing alarm opens one
 * incident, acknowledging it through the API moves it to In Progress with a work note, clearing
 * resolves it; the credentials never come back.
 */
const fleet = simulatedFleet({ seed: 42, devices: 240 });
const region = 'APAC';
const offline = fleet.filter((d) => !d.status.connected && d.details.region === region);
const tag = randomUUID().slice(0, 8);

interface Channel {
  id: string;
  type: string;
  instanceUrl?: string;
  auth?: string;
  username?: string;
  password?: string;
}
type ErrorBody = { message: string; errors?: { field: string; message: string }[] };

let fake: ServiceNowFake;
let channel: Channel;
let watcherId: string;
const evaluate = async () => expect((await api('POST', '/alarms/evaluate')).status).toBe(200);
const mine = () => [...fake.incidents.values()].filter(({ record }) => record.correlation_id?.startsWith(`${watcherId}:`));

beforeAll(async () => {
  fake = await startServiceNowFake();
  const created = await api<Channel>('POST', '/channels', { body: { name: `itsm ${tag}`, type: 'servicenow', instanceUrl: fake.url, username: SERVICENOW_FAKE_CREDENTIALS.username, password: SERVICENOW_FAKE_CREDENTIALS.password } });
  expect(created.status).toBe(201);
  channel = created.body;
  const watcher = await api<string>('POST', '/watcher', {
    body: offlineWatcher(region, `sn-${tag}@example.com`, { dashboard: 'servicenow-e2e', service: 'video', type: 'offline', description: 'APAC device offline', sendEmail: false, emails: [], channelIds: [channel.id] }),
  });
  expect(watcher.status).toBe(200);
  watcherId = watcher.body;
});
afterAll(async () => {
  if (watcherId) await api('DELETE', `/watcher/${watcherId}`);
  await fake.close();
});

describe('a ServiceNow channel', () => {
  it('answers the channel with its credential masked, on create and after', async () => {
    expect(offline.length).toBeGreaterThan(0);
    expect(channel).toMatchObject({ type: 'servicenow', instanceUrl: fake.url, auth: 'basic', username: SERVICENOW_FAKE_CREDENTIALS.username, password: '********' });
    const read = await api<Channel>('GET', `/channels/${channel.id}`);
    expect(JSON.stringify(read.body)).not.toContain(SERVICENOW_FAKE_CREDENTIALS.password);
  });

  it('refuses incomplete credentials and an instance URL with a path, 400 naming the field', async () => {
    const missing = await api<ErrorBody>('POST', '/channels', { body: { name: 'x', type: 'servicenow', instanceUrl: fake.url, username: 'u' } });
    expect(missing.status).toBe(400);
    expect(missing.body.errors?.map((e) => e.field)).toEqual(['body.password']);
    const path = await api<ErrorBody>('POST', '/channels', { body: { name: 'x', type: 'servicenow', instanceUrl: `${fake.url}/api/now`, username: 'u', password: 'p' } });
    expect(path.status).toBe(400);
    expect(path.body.errors?.map((e) => e.field)).toEqual(['body.instanceUrl']);
    const unknown = await api<ErrorBody>('POST', '/channels', { body: { name: 'x', type: 'servicenow', instanceUrl: fake.url, username: 'u', password: 'p', token: 't' } });
    expect(unknown.status).toBe(400);
  });

  it('opens one incident per firing alarm, and none more when evaluated again', async () => {
    await evaluate();
    await evaluate();
    const incidents = mine();
    expect(incidents.map(({ record }) => record.correlation_id).sort()).toEqual(offline.map((d) => `${watcherId}:${d.devicesn}`).sort());
    expect(incidents.every(({ record }) => record.state === '1' && record.urgency === '1' && record.impact === '2')).toBe(true);
  });

  it('moves the acknowledged alarm\'s incident to In Progress with a work note naming who', async () => {
    const device = offline[0]!;
    expect((await api('POST', `/alarms/${encodeURIComponent(`${watcherId}:${device.devicesn}`)}/ack`, { body: { comment: 'on it' } })).status).toBe(200);
    await evaluate();
    const incident = mine().find(({ record }) => record.correlation_id === `${watcherId}:${device.devicesn}`)!;
    expect(incident.record.state).toBe('2');
    expect(incident.notes).toEqual([expect.stringMatching(/^Acknowledged in device monitoring by api-key at .*: on it$/)]);
  });

  it('resolves every incident with close notes when the alarms clear, and logs each delivery', async () => {
    expect((await api('PUT', `/watcher/${watcherId}/status`, { body: { active: false } })).status).toBe(200);
    await evaluate();
    const incidents = mine();
    expect(incidents).toHaveLength(offline.length);
    expect(incidents.every(({ record }) => record.state === '6' && record.close_code === 'Solved (Permanently)' && (record.close_notes ?? '').includes('watcher inactive'))).toBe(true);
    const log = await api<{ items: { type: string; status: string }[] }>('GET', `/channels/${channel.id}/deliveries`);
    expect(log.body.items.map((d) => [d.type, d.status])).toEqual([
      ['alarms.cleared', 'delivered'],
      ['alarms.acknowledged', 'delivered'],
      ['alarms.raised', 'delivered'],
    ]);
  });
});
