import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import * as audit from '#lib/access/audit/repository';
import { AlarmEntity } from '#lib/alarms/entities';
import { doc, tableName } from '#lib/store/client';
import { fullPass } from '#lib/alarms/engine/fullPass';
import { outboxMailer } from '#lib/adapters/mail';
import * as alarms from '#lib/alarms/repository/alarms';
import { syncDevices } from '#lib/inventory/sync';
import { pagerdutySignature } from '#lib/notify/pagerduty/pure/webhooks';
import * as watchers from '#lib/watchers/repository';
import { handler } from '../../functions/incidents/pagerdutyEvents';
import { apiEvent, lambdaContext } from '../support/events';
import { device, fixed, offlineWatcher, unique } from '../support/fleet';

/*
 * Attacks on POST /incidents/pagerduty/events with correctly signed, hostile events: what
 * PagerDuty relays is partly written by anyone with a PagerDuty account (a user's name), so it
 * is kept to one visible, well-formed line before it becomes our alarm's `acknowledgedBy`.
 */
const SECRET = 'pd-attack-secret';
process.env.PAGERDUTY_WEBHOOK_SECRET = SECRET;

const post = async (body: string) => {
  const res = await handler(
    apiEvent({
      httpMethod: 'POST',
      resource: '/incidents/pagerduty/events',
      path: '/incidents/pagerduty/events',
      body,
      headers: { 'Content-Type': 'application/json', 'x-pagerduty-signature': pagerdutySignature(SECRET, body) },
    }),
    lambdaContext(),
  );
  return { status: res.statusCode, body: res.body ? (JSON.parse(res.body) as Record<string, unknown>) : undefined };
};
const acknowledged = (incidentKey: string, agent: unknown) =>
  JSON.stringify({ event: { id: unique('ev'), occurred_at: new Date().toISOString(), event_type: 'incident.acknowledged', agent, data: { incident_key: incidentKey } } });

/** A firing alarm of a new region's one offline device. */
const firingAlarm = async () => {
  const region = unique('R');
  await syncDevices(fixed(() => [device(region, `${region}-0`, 'Room 0', false)]));
  const watcherId = await watchers.create(offlineWatcher(region, `${unique('ops')}@example.com`, { sendEmail: false }));
  await fullPass({ mailer: outboxMailer(), deadline: Date.now() + 20_000 });
  const pair = { watcherId, devicesn: `${region}-0` };
  expect((await alarms.get(pair))?.open).toBe(true);
  return { pair, id: `${watcherId}:${region}-0` };
};

describe('PagerDuty acknowledgements naming a hostile agent', () => {
  it('keeps acknowledgedBy on one visible line: control, bidirectional and invisible characters of the name and e-mail never stored', async () => {
    const { pair, id } = await firingAlarm();
    const answer = await post(acknowledged(id, { summary: 'Eve\r\nBcc: all@example.com\u0000\u202Egnp.exe\u200B', email: 'eve\r\n@example.com' }));
    expect(answer).toMatchObject({ status: 200, body: { outcome: 'acknowledged' } });
    const by = (await alarms.get(pair))?.acknowledgedBy ?? '';
    expect(by).toContain('Eve');
    expect(by).not.toMatch(/[\p{Cc}\p{Default_Ignorable_Code_Point}\u2028\u2029]/u);
  });

  it('cuts a long name between characters, never inside an emoji (no lone surrogate stored)', async () => {
    const { pair, id } = await firingAlarm();
    // "PagerDuty user " is 15 characters: the 256th falls on the first emoji's high surrogate
    const answer = await post(acknowledged(id, { summary: `${'a'.repeat(240)}${'😀'.repeat(20)}` }));
    expect(answer).toMatchObject({ status: 200, body: { outcome: 'acknowledged' } });
    const by = (await alarms.get(pair))?.acknowledgedBy ?? '';
    expect(by.startsWith('PagerDuty user aaa')).toBe(true);
    expect(by).not.toMatch(/\p{Cs}/u);
  });
});

describe('one PagerDuty acknowledgement delivered 50 times at once', () => {
  it('acknowledges once: one acknowledged answer, one ack in the alarm history, one audit record; the rest answer alreadyAcknowledged', async () => {
    const { pair, id } = await firingAlarm();
    const body = acknowledged(id, { summary: 'Pat' });
    const answers = await Promise.all(Array.from({ length: 50 }, () => post(body)));
    expect(answers.every((a) => a.status === 200)).toBe(true);
    const outcomes = answers.map((a) => a.body?.outcome);
    expect(outcomes.filter((o) => o === 'acknowledged')).toHaveLength(1);
    expect(outcomes.filter((o) => o === 'alreadyAcknowledged')).toHaveLength(49);
    // the alarm's history holds one acknowledgement (50 filled it: later events went unrecorded)
    const item = (await doc.send(new GetCommand({ TableName: tableName(), Key: AlarmEntity.key(pair) }))).Item;
    expect((item?.ackEvents as { action: string }[]).filter((e) => e.action === 'ack')).toHaveLength(1);
    expect((await audit.query({ targetId: id }, 100)).items).toHaveLength(1);
  });
});

describe('one PagerDuty resolution delivered again and again', () => {
  it('notes it once in the alarm history, so retries never fill the history and crowd out later events', async () => {
    const { pair, id } = await firingAlarm();
    const body = JSON.stringify({ event: { id: unique('ev'), occurred_at: new Date().toISOString(), event_type: 'incident.resolved', agent: { summary: 'Pat' }, data: { incident_key: id } } });
    // PagerDuty redelivers a webhook it did not see answered in time
    for (let i = 0; i < 5; i++) expect(await post(body)).toMatchObject({ status: 200, body: { outcome: 'stillFiring' } });
    const item = (await doc.send(new GetCommand({ TableName: tableName(), Key: AlarmEntity.key(pair) }))).Item;
    expect((item?.ackEvents as { action: string }[]).filter((e) => e.action === 'note')).toHaveLength(1);
    // another resolution (a new event) is noted again
    const again = JSON.stringify({ event: { id: unique('ev'), occurred_at: new Date(Date.now() + 1000).toISOString(), event_type: 'incident.resolved', agent: { summary: 'Pat' }, data: { incident_key: id } } });
    await post(again);
    const after = (await doc.send(new GetCommand({ TableName: tableName(), Key: AlarmEntity.key(pair) }))).Item;
    expect((after?.ackEvents as { action: string }[]).filter((e) => e.action === 'note')).toHaveLength(2);
  });
});

describe('a signed PagerDuty event with an over-long field', () => {
  it('an event_type over 128 characters is 400 naming the field and its bound (not the list of types acted on as if it were the rule)', async () => {
    const body = JSON.stringify({ event: { id: unique('ev'), occurred_at: new Date().toISOString(), event_type: 'x'.repeat(129) } });
    const answer = await post(body);
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ errors: [{ field: 'body.event.event_type', message: expect.stringContaining('1 to 128 characters') }] });
  });
});
