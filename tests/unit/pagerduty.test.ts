import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { actionOf, eventOf, maskedRoutingKey, PAGERDUTY_ROUTING_KEY_PATTERN, PAGERDUTY_SEVERITY } from '#lib/notify/pagerduty/pure/events';
import { agentOf, pagerdutySignature, readIncidentEvent, signatureHolds } from '#lib/notify/pagerduty/pure/webhooks';
import { perAlarm } from '#lib/notify/pagerduty/plan';
import { buildDigest } from '#lib/notify/pure/digest';
import type { NotifiedAlarm } from '#lib/notify/types';

const alarm = (sn: string, room = 'Room 1'): NotifiedAlarm => ({ id: `w1:${sn}`, devicesn: sn, deviceid: `id-${sn}`, severity: 1, region: 'EMEA', location: 'London', room, raisedAt: '2026-11-28T10:00:00.000Z' });
const watcher = { id: 'w1', description: 'room offline', severity: 1 as const, type: 'offline' };
const digestOf = (type: 'alarms.raised' | 'alarms.cleared' | 'alarms.acknowledged' | 'alarms.repeat' | 'alarms.flapping' | 'alarms.escalated', alarms = [alarm('SN1')]) => buildDigest({ type, at: '2026-11-28T10:00:00.000Z', watcher, alarms });
const KEY = 'a'.repeat(32);

describe('PagerDuty events', () => {
  it('maps our four severities on PagerDuty\'s four', () => {
    expect(PAGERDUTY_SEVERITY).toEqual({ 1: 'critical', 2: 'error', 3: 'warning', 4: 'info' });
  });

  it('triggers with the alarm id as dedup_key, the device and its place as custom_details, and a link', () => {
    const event = eventOf(digestOf('alarms.raised'), KEY, 'https://board.example.com/alarms/{id}');
    expect(event).toMatchObject({
      routing_key: KEY,
      event_action: 'trigger',
      dedup_key: 'w1:SN1',
      payload: { severity: 'critical', source: 'SN1', custom_details: { device: 'SN1', room: 'Room 1', location: 'London', region: 'EMEA' } },
      links: [{ href: 'https://board.example.com/alarms/w1%3ASN1' }],
    });
    expect(event!.payload!.summary.length).toBeLessThanOrEqual(1024);
  });

  it('acknowledges and resolves by dedup key only; reminders are not PagerDuty\'s', () => {
    expect(eventOf(digestOf('alarms.acknowledged'), KEY)).toEqual({ routing_key: KEY, event_action: 'acknowledge', dedup_key: 'w1:SN1', client: 'device-monitoring' });
    expect(eventOf(digestOf('alarms.cleared'), KEY)).toMatchObject({ event_action: 'resolve', dedup_key: 'w1:SN1' });
    expect(actionOf('alarms.repeat')).toBeUndefined();
    expect(perAlarm({ id: 'd', digest: digestOf('alarms.repeat'), target: { kind: 'channel', channelId: 'c' }, status: 'pending' })).toEqual([]);
  });

  it('updates the open incident, not a new one, when the device flaps or an escalation step is reached: a trigger with the same dedup key', () => {
    const flapping = eventOf(digestOf('alarms.flapping'), KEY)!;
    expect(flapping).toMatchObject({ event_action: 'trigger', dedup_key: 'w1:SN1' });
    expect(flapping.payload!.summary).toMatch(/^Flapping/);
    const escalated = eventOf({ ...digestOf('alarms.escalated'), step: 2 }, KEY)!;
    expect(escalated).toMatchObject({ event_action: 'trigger', dedup_key: 'w1:SN1' });
    expect(escalated.payload!.summary).toMatch(/^Escalated, step 2/);
  });

  it('splits a digest into one delivery per alarm, with ids fixed by digest and alarm', () => {
    const draft = { id: 'd', digest: digestOf('alarms.raised', [alarm('SN1'), alarm('SN2', 'Room 2')]), target: { kind: 'channel' as const, channelId: 'c' }, status: 'pending' as const };
    const split = perAlarm(draft);
    expect(split.map((d) => d.digest.alarms.map((a) => a.id))).toEqual([['w1:SN1'], ['w1:SN2']]);
    expect(new Set(split.map((d) => d.id)).size).toBe(2);
    expect(perAlarm(draft).map((d) => d.id)).toEqual(split.map((d) => d.id));
  });

  it('masks a routing key to its last 4 characters, a form the contract takes back', () => {
    expect(maskedRoutingKey(`${'x'.repeat(28)}WXYZ`)).toBe('***WXYZ');
    expect(new RegExp(PAGERDUTY_ROUTING_KEY_PATTERN).test('***WXYZ')).toBe(true);
    expect(new RegExp(PAGERDUTY_ROUTING_KEY_PATTERN).test('short')).toBe(false);
  });
});

describe('PagerDuty V3 webhook signatures', () => {
  const body = '{"event":{"id":"e1"}}';
  const independent = (secret: string) => `v1=${createHmac('sha256', secret).update(body).digest('hex')}`;

  it('signs as PagerDuty documents: v1= and the hex HMAC-SHA256 of the raw body', () => {
    expect(pagerdutySignature('s', body)).toBe(independent('s'));
  });

  it('holds when any of several comma-separated signatures matches (a secret rotating), not otherwise', () => {
    expect(signatureHolds('s', body, `${independent('old')},${independent('s')}`)).toBe(true);
    expect(signatureHolds('s', body, `${independent('old')}, ${independent('s')}`)).toBe(true);
    expect(signatureHolds('s', body, independent('other'))).toBe(false);
    expect(signatureHolds('s', `${body} `, independent('s'))).toBe(false);
    expect(signatureHolds('s', body, undefined)).toBe(false);
    expect(signatureHolds('s', body, 'v1=zz')).toBe(false);
  });

  it('reads who acted and which alarm from an incident event', () => {
    const event = { event: { id: 'e', event_type: 'incident.acknowledged', occurred_at: '2026-11-28T10:00:00Z', agent: { summary: 'Dana', email: 'dana@example.com' }, data: { incident_key: 'w1:SN1' } } };
    expect(readIncidentEvent(event)).toMatchObject({ kind: 'acknowledged', dedupKey: 'w1:SN1', by: 'PagerDuty user Dana <dana@example.com>' });
    expect(readIncidentEvent({ event: { ...event.event, event_type: 'incident.triggered' } })).toMatchObject({ kind: 'other' });
    expect(readIncidentEvent({})).toMatchObject({ kind: 'malformed' });
    expect(agentOf(undefined)).toBe('PagerDuty');
  });
});
