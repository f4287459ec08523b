import Ajv from 'ajv';
import { describe, expect, it, vi } from 'vitest';
import { Type } from '@sinclair/typebox';
import { http, type Binding, type CompiledValidator } from '#lib/http/index';
import { route } from '#lib/http/contract';
import { MAX_BODY_BYTES } from '#lib/http/body';
import { Conflict, NotFound } from '#lib/shared/errors';
import { logger } from '#lib/shared/log';
import { eventSchema } from '../../scripts/registry';
import { apiEvent, jsonEvent, lambdaContext } from '../support/events';

const compile = (schema: object): CompiledValidator =>
  new Ajv({ allErrors: true, verbose: true }).compile(schema) as unknown as CompiledValidator;

const echoRoute = route({
  method: 'POST',
  path: 'echo/{id}',
  summary: 'Echo',
  permission: 'fleet:read',
  invalidStatus: 422,
  request: {
    path: { id: Type.String({ pattern: '^[0-9]+$', description: 'a positive integer' }) },
    body: Type.Object({ name: Type.String({ maxLength: 5 }), count: Type.Optional(Type.Integer()) }, { additionalProperties: false }),
  },
  responses: { 200: { description: 'The echo', schema: Type.Object({ id: Type.String(), name: Type.String() }) } },
});
const validate = compile(eventSchema(echoRoute)!);

const echo = http<typeof echoRoute>({ functionName: 'echo', validate, invalidStatus: 422 }, async ({ body, path }) => ({
  statusCode: 200,
  body: { id: path.id, name: body.name },
}));

/** A route with no input and any answer, for the wrapper's own behaviour. */
const anyRoute = route({
  method: 'POST',
  path: 'any',
  summary: 'Any',
  permission: 'fleet:read',
  invalidStatus: 400,
  responses: { 200: { description: 'Anything', schema: Type.Unknown() } },
});
const plain: Binding<typeof anyRoute> = { functionName: 'any', invalidStatus: 400 };

const call = async (handler: typeof echo, evt = apiEvent()) => {
  const response = await handler(evt, lambdaContext());
  return { ...response, json: response.body ? JSON.parse(response.body) : undefined };
};

describe('http() wrapper', () => {
  it('passes a valid request to the handler and answers JSON', async () => {
    const res = await call(echo, jsonEvent({ name: 'abc' }, { pathParameters: { id: '7' } }));
    expect(res.statusCode).toBe(200);
    expect(res.headers?.['content-type']).toBe('application/json');
    expect(res.json).toEqual({ id: '7', name: 'abc' });
  });

  it('answers the endpoint status with every offending field named', async () => {
    const res = await call(echo, jsonEvent({ name: 'too long', extra: 1, count: 'x' }, { pathParameters: { id: 'x' } }));
    expect(res.statusCode).toBe(422);
    const fields = res.json.errors.map((e: { field: string }) => e.field);
    expect(fields).toEqual(
      expect.arrayContaining(['pathParameters.id', 'body.name', 'body.extra', 'body.count']),
    );
    expect(res.json.message).toMatch(/^Invalid request: /);
    expect(res.json.errors).toContainEqual({ field: 'pathParameters.id', message: 'pathParameters.id must be a positive integer' });
    expect(res.json.errors).toContainEqual({ field: 'body.extra', message: 'body.extra is not an allowed property' });
  });

  it('names a missing required field', async () => {
    const res = await call(echo, jsonEvent({}, { pathParameters: { id: '1' } }));
    expect(res.json.errors).toEqual([{ field: 'body.name', message: 'body.name is required' }]);
  });

  it('uses 400 when the endpoint says so', async () => {
    const strict = http<typeof anyRoute>({ ...plain, validate }, async () => ({ statusCode: 200, body: 1 }));
    expect((await call(strict, jsonEvent({}, { pathParameters: { id: '1' } }))).statusCode).toBe(400);
  });

  it('answers malformed JSON with the invalid-input status, not 500', async () => {
    const res = await call(echo, apiEvent({ body: '{"name":', headers: { 'content-type': 'application/json' } }));
    expect(res.statusCode).toBe(422);
    expect(res.json).toEqual({ message: 'Request body is not valid JSON' });
  });

  it.each([false, 42])('answers a body already decoded to %s with the invalid-input status, not 500', async (decoded) => {
    const evt = apiEvent({ headers: { 'content-type': 'application/json' }, pathParameters: { id: '1' } });
    (evt as { body: unknown }).body = decoded;
    const res = await call(echo, evt);
    expect(res.statusCode).toBe(422);
    expect(res.json.errors).toContainEqual({ field: 'body', message: 'body must be object' });
  });

  it('answers 5,100 levels of nesting with the invalid-input status naming the nesting limit, not a stack overflow', async () => {
    const deep = '['.repeat(5100) + ']'.repeat(5100);
    for (const body of [deep, `{"name":${deep}}`]) {
      const res = await call(echo, apiEvent({ body, headers: { 'content-type': 'application/json' }, pathParameters: { id: '1' } }));
      expect(res.statusCode).toBe(422);
      expect(res.json.errors).toEqual([{ field: 'body', message: 'body nests arrays and objects deeper than 32 levels (the nesting limit)' }]);
    }
  });

  it('answers a non-JSON content type with 415 JSON', async () => {
    const res = await call(echo, apiEvent({ body: 'name=abc', headers: { 'content-type': 'text/plain' } }));
    expect(res.statusCode).toBe(415);
    expect(res.json.message).toContain('application/json');
  });

  it('reads the content type whatever the header spelling', async () => {
    const res = await call(
      echo,
      apiEvent({ body: '{"name":"a"}', headers: { 'CONTENT-TYPE': 'application/json; charset=utf-8' }, pathParameters: { id: '1' } }),
    );
    expect(res.statusCode).toBe(200);
  });

  it('treats an empty body as no body, without a content type', async () => {
    const noBody = http<typeof anyRoute>(plain, async ({ body }) => ({ statusCode: 200, body: body === undefined }));
    const res = await call(noBody, apiEvent({ body: '' }));
    expect(res.json).toBe(true);
  });

  it('refuses a body over the size limit with 413', async () => {
    const res = await call(echo, jsonEvent({ name: 'x'.repeat(MAX_BODY_BYTES) }, { pathParameters: { id: '1' } }));
    expect(res.statusCode).toBe(413);
    expect(res.json.message).toContain(String(MAX_BODY_BYTES));
  });

  it('answers 413 naming the size and the way out when the answer would exceed what Lambda may return', async () => {
    // ~7 MB of alarms-like records: API Gateway would turn the Lambda's refusal into a bare 502
    const big = Array.from({ length: 45_000 }, (_, i) => ({ id: `alarm-${i}`, room: 'Room 1', note: 'x'.repeat(120) }));
    const answer = http<typeof anyRoute>(plain, async () => ({ statusCode: 200, body: big }));
    const res = await call(answer);
    expect(res.statusCode).toBe(413);
    expect(res.json.message).toMatch(/^The answer would be \d+ bytes, over the 6291456 bytes .*\?limit and \?cursor/);
  });

  it('answers a large answer under the limit as it is', async () => {
    const big = Array.from({ length: 20_000 }, (_, i) => ({ id: `alarm-${i}`, note: 'x'.repeat(120) }));
    const answer = http<typeof anyRoute>(plain, async () => ({ statusCode: 200, body: big }));
    const res = await call(answer);
    expect(res.statusCode).toBe(200);
    expect(res.json).toHaveLength(20_000);
  });

  it('maps thrown domain errors to their status and message', async () => {
    const missing = http<typeof anyRoute>(plain, async () => {
      throw new NotFound('Interval 9 not found');
    });
    const clash = http<typeof anyRoute>(plain, async () => {
      throw new Conflict('Role is still assigned');
    });
    expect(await call(missing)).toMatchObject({ statusCode: 404, json: { message: 'Interval 9 not found' } });
    expect(await call(clash)).toMatchObject({ statusCode: 409, json: { message: 'Role is still assigned' } });
  });

  it('sends a bare JSON value when the error carries the body the spec fixes', async () => {
    const bare = http<typeof anyRoute>(plain, async () => {
      throw new NotFound('Filter not found', { body: 'Filter not found' });
    });
    const res = await call(bare);
    expect(res.statusCode).toBe(404);
    expect(res.body).toBe('"Filter not found"');
  });

  it('hides unknown errors behind a generic 500 and logs them with the request id', async () => {
    const spy = vi.spyOn(logger, 'error').mockImplementation(() => {});
    const broken = http<typeof anyRoute>(plain, async () => {
      throw new Error('secret internals at /var/task/x.js');
    });
    const res = await call(broken);
    expect(res.statusCode).toBe(500);
    expect(res.json).toEqual({ message: 'Internal server error' });
    expect(res.body).not.toContain('secret');
    expect(spy).toHaveBeenCalledWith('request failed', expect.objectContaining({ requestId: 'req-test', status: 500 }));
    spy.mockRestore();
  });

  it('answers store throttling with 503 and Retry-After', async () => {
    const throttled = http<typeof anyRoute>(plain, async () => {
      throw Object.assign(new Error('slow down'), { name: 'ThrottlingException' });
    });
    const res = await call(throttled);
    expect(res.statusCode).toBe(503);
    expect(res.headers?.['retry-after']).toBe('1');
  });
});
