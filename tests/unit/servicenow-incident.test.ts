import { describe, expect, it } from 'vitest';
import { correlationId, lookupQuery, newIncident, requestFor, stepOf, URGENCY_IMPACT } from '#lib/notify/servicenow/pure/incident';
import { channelOf, credentialsOf, instancePathProblem, storedFields } from '#lib/notify/servicenow/pure/channel';
import type { NotifiedAlarm } from '#lib/notify/types';

/** lib/notify/servicenow/pure: what an alarm makes of its incident, and how a ServiceNow channel keeps its credentials. */
const alarm: NotifiedAlarm = {
  id: 'w-1:SN-1',
  devicesn: 'SN-1',
  deviceid: 'd-1',
  severity: 2,
  region: 'EMEA',
  location: 'London',
  room: 'Board room',
  raisedAt: '2026-11-28T10:00:00.000Z',
};
const watcher = { id: 'w-1', description: 'device offline', severity: 2 as const, type: 'offline' };

describe('ServiceNow incident mapping', () => {
  it('maps each severity to urgency and impact (priority 1, 2, 3, 5 in the default matrix)', () => {
    expect(URGENCY_IMPACT).toEqual({ 1: { urgency: 1, impact: 1 }, 2: { urgency: 1, impact: 2 }, 3: { urgency: 2, impact: 2 }, 4: { urgency: 3, impact: 3 } });
  });

  it('opens an incident naming the device, room and watcher, correlated by alarm id and raise time', () => {
    expect(newIncident(alarm, watcher)).toEqual({
      short_description: 'Major: device offline: SN-1 in Board room, London, EMEA',
      description: expect.stringContaining('Alarm id: w-1:SN-1.'),
      urgency: 1,
      impact: 2,
      correlation_id: 'w-1:SN-1',
      correlation_display: 'device-monitoring alarm raised 2026-11-28T10:00:00.000Z',
    });
    expect(lookupQuery(alarm)).toBe('correlation_id=w-1:SN-1^correlation_display=device-monitoring alarm raised 2026-11-28T10:00:00.000Z');
  });

  it('digests an alarm id that the field cannot hold or that would break the encoded query', () => {
    expect(correlationId('w:'.padEnd(101, 'x'))).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(correlationId('w:SN^1')).toMatch(/^sha256:/);
    expect(correlationId('w:'.padEnd(100, 'x'))).toBe('w:'.padEnd(100, 'x'));
  });

  it('notes a flapping device or an escalation step on the open incident, leaving its state, and never reopens a resolved one', () => {
    const flapping = stepOf('alarms.flapping', alarm)!;
    expect(requestFor(flapping, { sys_id: 's', state: 2 }, alarm, watcher)).toEqual({ method: 'PATCH', sysId: 's', body: { work_notes: expect.stringContaining('flapping') } });
    expect(requestFor(flapping, { sys_id: 's', state: 6 }, alarm, watcher)).toBeUndefined();
    const escalated = stepOf('alarms.escalated', alarm, 3)!;
    expect(requestFor(escalated, undefined, alarm, watcher)).toMatchObject({ method: 'POST', body: { state: 1, correlation_id: 'w-1:SN-1', work_notes: expect.stringContaining('step 3') } });
    expect(stepOf('alarms.repeat', alarm)).toBeUndefined();
  });

  it('only ever moves an incident forward, opening it at the step when none is found', () => {
    const raise = stepOf('alarms.raised', alarm)!;
    const ack = stepOf('alarms.acknowledged', { ...alarm, acknowledgedBy: 'dana', acknowledgedAt: '2026-11-28T10:05:00.000Z' })!;
    const clear = stepOf('alarms.cleared', { ...alarm, clearedAt: '2026-11-28T11:00:00.000Z', reason: 'resolved' })!;
    expect(requestFor(raise, undefined, alarm, watcher)).toMatchObject({ method: 'POST', body: { state: 1, correlation_id: 'w-1:SN-1' } });
    expect(requestFor(raise, { sys_id: 's', state: 1 }, alarm, watcher)).toBeUndefined();
    expect(requestFor(ack, { sys_id: 's', state: 1 }, alarm, watcher)).toEqual({
      method: 'PATCH',
      sysId: 's',
      body: { state: 2, work_notes: 'Acknowledged in device monitoring by dana at 2026-11-28T10:05:00.000Z.' },
    });
    expect(requestFor(ack, { sys_id: 's', state: 6 }, alarm, watcher)).toBeUndefined();
    expect(requestFor(clear, { sys_id: 's', state: 2 }, alarm, watcher)).toEqual({
      method: 'PATCH',
      sysId: 's',
      body: { state: 6, close_code: 'Solved (Permanently)', close_notes: 'Device SN-1 recovered: the alarm cleared at 2026-11-28T11:00:00.000Z (resolved).' },
    });
    // a clear that arrives before its raise was delivered leaves one incident, resolved
    expect(requestFor(clear, undefined, alarm, watcher)).toMatchObject({ method: 'POST', body: { state: 6, close_code: 'Solved (Permanently)', short_description: expect.any(String) } });
    expect(stepOf('alarms.repeat', alarm)).toBeUndefined();
    expect(stepOf('report', alarm)).toBeUndefined();
  });
});

describe('ServiceNow channel credentials', () => {
  const base = { name: 'itsm', type: 'servicenow' as const, instanceUrl: 'https://acme.service-now.com/' };
  it('takes basic auth or OAuth client credentials, stores the secret apart and answers it masked', () => {
    expect(storedFields({ ...base, username: 'u', password: 'p' })).toEqual({
      fields: { channelType: 'servicenow', instanceUrl: 'https://acme.service-now.com', auth: 'basic', username: 'u' },
      secret: 'p',
    });
    expect(credentialsOf({ ...base, clientId: 'c', clientSecret: 's' })).toEqual({ auth: 'oauth', clientId: 'c', secret: 's' });
    expect(channelOf({ instanceUrl: 'https://acme.service-now.com', auth: 'oauth', clientId: 'c', secret: 's' })).toEqual({
      type: 'servicenow',
      instanceUrl: 'https://acme.service-now.com',
      auth: 'oauth',
      clientId: 'c',
      clientSecret: '********',
    });
  });

  it('refuses an instance URL with a path or query', () => {
    expect(instancePathProblem('https://acme.service-now.com')).toBeUndefined();
    expect(instancePathProblem('https://acme.service-now.com/api/now')).toMatch(/^instanceUrl must name the instance only/);
    expect(instancePathProblem('https://acme.service-now.com/?x=1')).toMatch(/^instanceUrl must name the instance only/);
  });
});
