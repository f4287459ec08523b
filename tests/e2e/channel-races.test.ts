import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { api } from '../support/api';

/**
 * A watcher write naming a channel races the channel's delete: whatever order the store sees
 * them in, no stored watcher names a channel that is gone, and nobody gets a 5xx.
 */
const ROUNDS = 12;
const tag = randomUUID().slice(0, 8);
const rule = (channelIds: string[], i: number) => ({
  user: 'probe',
  dashboard: `race-${tag}`,
  service: 'video',
  type: 'offline',
  allDevices: false,
  devicesId: [`race-${tag}-${i}`],
  severity: 3,
  sendEmail: false,
  operations: { type: 'device', operatorType: 'AND', conditions: [{ element: 'status.connected', operator: '==', value: 'false' }] },
  channelIds,
});
const newChannel = async (i: number) => {
  const res = await api<{ id: string }>('POST', '/channels', { body: { name: `race ${tag} ${i}`, type: 'email', emails: [`race-${tag}@example.com`] } });
  expect(res.status).toBe(201);
  return res.body.id;
};
const channelExists = async (id: string) => (await api('GET', `/channels/${id}`)).status === 200;
const watcherChannels = async (id: string) => {
  const res = await api<{ channelIds?: string[] }>('GET', `/watcher/${id}`);
  return res.status === 200 ? (res.body.channelIds ?? []) : undefined;
};

describe('watcher writes racing channel deletes', () => {
  it('POST /watcher naming a channel and DELETE of that channel never leave a watcher naming a deleted channel', async () => {
    for (let i = 0; i < ROUNDS; i++) {
      const channel = await newChannel(i);
      const [created, deleted] = await Promise.all([api<string>('POST', '/watcher', { body: rule([channel], i) }), api('DELETE', `/channels/${channel}`)]);
      expect([200, 400]).toContain(created.status);
      expect([200, 409]).toContain(deleted.status);
      const named = created.status === 200 ? await watcherChannels(created.body) : undefined;
      if (named?.includes(channel)) expect(await channelExists(channel)).toBe(true);
      if (deleted.status === 200) expect(named ?? []).not.toContain(channel);
    }
  });

  it('PUT /watcher adding a channel and DELETE of that channel never leave a watcher naming a deleted channel', async () => {
    const made = await api<string>('POST', '/watcher', { body: rule([], 0) });
    expect(made.status).toBe(200);
    for (let i = 0; i < ROUNDS; i++) {
      const channel = await newChannel(i);
      const [updated, deleted] = await Promise.all([api('PUT', `/watcher/${made.body}`, { body: rule([channel], i) }), api('DELETE', `/channels/${channel}`)]);
      expect([200, 400, 409]).toContain(updated.status);
      expect([200, 409]).toContain(deleted.status);
      const named = await watcherChannels(made.body);
      if (named?.includes(channel)) expect(await channelExists(channel)).toBe(true);
    }
  });
});
