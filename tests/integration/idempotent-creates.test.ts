import { afterEach, describe, expect, it } from 'vitest';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { onStored } from '#lib/alarms/repository/changes';
import { doc, tableName } from '#lib/store/client';
import * as silences from '#lib/alarms/repository/silences';
import * as watchers from '#lib/watchers/repository';
import { INTERVAL_FIELDS } from '#lib/config/intervals/types';
import { handler as createSilence } from '../../functions/silences/create';
import { handler as createWatcher } from '../../functions/watchers/create';
import { handler as createChannel } from '../../functions/channels/create';
import { handler as createInterval } from '../../functions/intervals/create';
import { jsonEvent, lambdaContext } from '../support/events';
import { injectFault } from '../support/faults';
import { watcherInput } from '../support/fleet';

type Handler = typeof createSilence;
const call = async (h: Handler, body: unknown, headers: Record<string, string> = {}) => {
  const event = jsonEvent(body);
  event.headers = { ...event.headers, ...headers };
  const res = await h(event, lambdaContext());
  return { status: res.statusCode, body: res.body ? JSON.parse(res.body) : undefined, headers: res.headers ?? {} };
};

const HOUR = 3600_000;
const silenceBody = (comment = 'maintenance') => ({ matchers: { region: `R-${comment}` }, endsAt: new Date(Date.now() + HOUR).toISOString(), comment });
const silencesNamed = async (comment: string) => (await silences.all()).filter((s) => s.comment === comment);

let cleanups: (() => void)[] = [];
afterEach(() => {
  for (const clean of cleanups) clean();
  cleanups = [];
});

describe('a create never fails after its write (issue 24 item 4)', () => {
  it('POST /silences answers 201 when the reads after its write time out (the announcement is best effort)', async () => {
    // the stage's silences cap roster exists (its first use reads the silences, before any write)
    expect((await call(createSilence, silenceBody('warm-up'))).status).toBe(201);
    cleanups.push(onStored(async () => {})); // a listener, so the create announces (reads the firing alarms and silences)
    const clear = injectFault('timeout', 'QueryCommand', 10);
    const res = await call(createSilence, silenceBody('after-write'));
    clear();
    expect(res.status).toBe(201);
    expect((await silencesNamed('after-write')).map((s) => s.id)).toEqual([res.body.id]);
  });
});

describe('creates take an Idempotency-Key (issue 24 item 4)', () => {
  it('a retried POST /silences with the same key answers the first result and stores one silence', async () => {
    const body = silenceBody('retried');
    const first = await call(createSilence, body, { 'Idempotency-Key': 'silence-key-1' });
    const again = await call(createSilence, body, { 'Idempotency-Key': 'silence-key-1' });
    expect(first.status).toBe(201);
    expect(again).toMatchObject({ status: 201, body: first.body });
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(await silencesNamed('retried')).toHaveLength(1);
    // another key is another create
    expect((await call(createSilence, body, { 'Idempotency-Key': 'silence-key-2' })).body.id).not.toBe(first.body.id);
    expect(await silencesNamed('retried')).toHaveLength(2);
  });

  it('parallel retries with one key create once', async () => {
    const body = silenceBody('parallel');
    const answers = await Promise.all(Array.from({ length: 8 }, () => call(createSilence, body, { 'idempotency-key': 'parallel-key' })));
    const created = answers.filter((a) => a.status === 201);
    expect(created.length).toBeGreaterThanOrEqual(1);
    expect(new Set(created.map((a) => a.body.id)).size).toBe(1);
    // the others were told to retry, and a retry now answers the same silence
    for (const other of answers.filter((a) => a.status !== 201)) expect(other.status).toBe(409);
    expect((await call(createSilence, body, { 'idempotency-key': 'parallel-key' })).body.id).toBe(created[0]!.body.id);
    expect(await silencesNamed('parallel')).toHaveLength(1);
  });

  it('the same key with another body is 422 naming the header, and creates nothing', async () => {
    await call(createSilence, silenceBody('reused'), { 'idempotency-key': 'reused-key' });
    const res = await call(createSilence, silenceBody('reused-other'), { 'idempotency-key': 'reused-key' });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([{ field: 'headers.idempotency-key', message: expect.any(String) }]);
    expect(await silencesNamed('reused-other')).toHaveLength(0);
  });

  it('a malformed key is the invalid-input status; a refused create claims nothing', async () => {
    expect((await call(createSilence, silenceBody('bad-key'), { 'idempotency-key': 'with space' })).status).toBe(400);
    expect((await call(createSilence, silenceBody('bad-key'), { 'idempotency-key': 'x'.repeat(256) })).status).toBe(400);
    // a request refused (here by the domain rule "endsAt in the future") lets the key go
    const past = { ...silenceBody('bad-key'), endsAt: new Date(Date.now() - HOUR).toISOString() };
    expect((await call(createSilence, past, { 'idempotency-key': 'fixed-key' })).status).toBe(400);
    expect((await call(createSilence, silenceBody('bad-key'), { 'idempotency-key': 'fixed-key' })).status).toBe(201);
  });

  it('POST /watcher, POST /intervals and POST /channels replay their first result; the kept answer is sealed', async () => {
    const watcher = watcherInput({ description: 'idempotent watcher' });
    const w1 = await call(createWatcher, watcher, { 'idempotency-key': 'w-key' });
    expect(w1.status).toBe(200);
    expect((await call(createWatcher, watcher, { 'idempotency-key': 'w-key' })).body).toBe(w1.body);
    expect((await watchers.list()).filter((w) => w.description === 'idempotent watcher')).toHaveLength(1);

    const settings = Object.fromEntries(INTERVAL_FIELDS.map((f) => [f, 60]));
    const i1 = await call(createInterval, settings, { 'idempotency-key': 'i-key' });
    expect((await call(createInterval, settings, { 'idempotency-key': 'i-key' })).body).toEqual(i1.body);

    process.env.ALLOW_LOCAL_WEBHOOKS = 'true';
    const hook = { name: 'idempotent hook', type: 'webhook', url: 'http://127.0.0.1:9/hook' };
    const c1 = await call(createChannel, hook, { 'idempotency-key': 'c-key' });
    expect(c1.status).toBe(201);
    expect(c1.body.secret).toEqual(expect.any(String));
    expect((await call(createChannel, hook, { 'idempotency-key': 'c-key' })).body).toEqual(c1.body);
    // neither the key nor the secret shown once is readable in the table
    const { Items = [] } = await doc.send(
      new ScanCommand({ TableName: tableName(), FilterExpression: '#type = :type', ExpressionAttributeNames: { '#type': 'type' }, ExpressionAttributeValues: { ':type': 'IdempotencyKey' } }),
    );
    expect(Items.length).toBeGreaterThanOrEqual(3);
    expect(JSON.stringify(Items)).not.toContain(c1.body.secret);
    expect(JSON.stringify(Items)).not.toContain('c-key');
  });
});
