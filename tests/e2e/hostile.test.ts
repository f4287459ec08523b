import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, type ApiResponse } from '../support/api';
import { routes, samplePath, type Route } from '../support/routes';
import { compiledValidator, eventSchemaOf, requestShape } from '../support/schemas';

/**
 * Hostile input on every route that takes a body or a path parameter, derived from the route
 * files and the request schemas, so every new endpoint is covered without editing this file.
 * Every answer must be a 4xx JSON error (413 above the size limit), never a 5xx, and nothing
 * stored may change: every parameterless GET answers the same before and after.
 */
const all = await routes();
const described = all.map((route) => ({ route, name: route.functionName, ...requestShape(eventSchemaOf(route)) }));
const withBody = described.filter((r) => r.hasBody);
const withPath = described.filter((r) => r.pathParams.length > 0);
const snapshotRoutes = all.filter((r) => r.method === 'GET' && !r.path.includes('{'));

const snapshot = async () =>
  Object.fromEntries(
    await Promise.all(snapshotRoutes.map(async (r) => [r.path, (await api('GET', samplePath(r))).body] as const)),
  );

const expectClientError = (res: ApiResponse, label: string) => {
  expect(res.status, `${label} -> ${res.status} ${JSON.stringify(res.body)}`).toBeGreaterThanOrEqual(400);
  expect(res.status, `${label} -> ${res.status} ${JSON.stringify(res.body)}`).toBeLessThan(500);
  expect(res.headers.get('content-type'), label).toMatch(/application\/json/);
  expect(typeof (res.body as { message?: unknown }).message === 'string' || typeof res.body === 'string', label).toBe(true);
};

const send = (route: Route, raw: string, path = samplePath(route)) =>
  api(route.method, path, { raw, headers: { 'content-type': 'application/json' } });

const nested = (depth: number): string => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);

let before: Record<string, unknown>;
beforeAll(async () => {
  before = await snapshot();
});
afterAll(async () => {
  expect(await snapshot()).toEqual(before);
});

describe.each(withBody.map((r) => [`${r.route.method} ${r.route.path}`, r] as const))('hostile bodies: %s', (_label, { route, name }) => {
  const rejects = async (body: unknown) => {
    const validate = await compiledValidator(name!);
    const pathParameters = Object.fromEntries(requestShape(eventSchemaOf(route)).pathParams.map((p) => [p, '1']));
    // serverless-offline decodes JSON `null` and `""` bodies into no body at all (API Gateway
    // would pass them on as text), so judge them as the handler receives them: absent
    const delivered = body === null || body === '' ? undefined : body;
    return !validate({ body: delivered, pathParameters, queryStringParameters: null });
  };

  it.each([
    ['malformed JSON', '{"a":'],
    ['200-deep nesting', nested(200)],
    ['prototype-pollution keys', '{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}'],
    ['a 200 KB string', JSON.stringify({ x: 'a'.repeat(200_000) })],
  ])('answers %s with a 4xx JSON error', async (label, raw) => {
    expectClientError(await send(route, raw), label);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('answers 5,100 levels of nesting with its invalid status naming the nesting limit', async () => {
    const res = await send(route, '['.repeat(5100) + ']'.repeat(5100));
    expect(res.status, JSON.stringify(res.body)).toBe(route.contract.invalidStatus);
    expect((res.body as { message: string }).message).toMatch(/deeper than \d+ levels \(the nesting limit\)/);
  });

  it.each([
    ['a string', '"text"'],
    ['a number', '42'],
    ['null', 'null'],
    ['an array', '[]'],
    ['an object', '{}'],
  ])('answers JSON of the wrong type (%s) with a 4xx when the schema refuses it', async (label, raw) => {
    if (!(await rejects(JSON.parse(raw)))) return; // a valid body for this route: not hostile
    expectClientError(await send(route, raw), label);
  });

  it('answers a body over the size limit with 413', async () => {
    const res = await send(route, JSON.stringify({ x: 'a'.repeat(300 * 1024) }));
    expect(res.status).toBe(413);
  });

  it('answers generated invalid JSON values with a 4xx, never a 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(fc.jsonValue({ maxDepth: 4 }), async (value) => {
        fc.pre(await rejects(value));
        expectClientError(await send(route, JSON.stringify(value)), JSON.stringify(value).slice(0, 80));
      }),
      { numRuns: 15, seed: 20261120 },
    );
  });
});

describe.each(withPath.map((r) => [`${r.route.method} ${r.route.path}`, r] as const))('hostile path parameters: %s', (_label, { route }) => {
  const hostile = [
    ['path traversal', '..%2F..%2Fetc%2Fpasswd'],
    ['a NUL byte', 'a%00b'],
    ['a 2,000-character value', 'x'.repeat(2000)],
    ['unicode', encodeURIComponent('ünï😀')],
    ['a negative number', '-1'],
  ] as const;
  it.each(hostile)('answers %s without a 5xx', async (label, value) => {
    const path = `/${route.path.replace(/\{[^}]+\}/g, value)}`;
    const res = await api(route.method, path, route.method === 'GET' || route.method === 'DELETE' ? {} : { body: {} });
    expect(res.status, `${label} -> ${res.status}`).toBeLessThan(500);
    if (res.status >= 400) expectClientError(res, label);
  });
});
