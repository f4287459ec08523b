import { createServer, type Server } from 'node:http';
import { existsSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { api } from '../support/api';

// npm start's default CORS_ORIGINS: the docs page's origin, as localhost and as 127.0.0.1 (docs/guide/local.md "Browsers (CORS)", docs/adr/0111-cors.md)
const allowed = () => new URL(inject('docsUrl')).origin;
const byAddress = () => allowed().replace('localhost', '127.0.0.1');
const OTHER = 'https://evil.example';
const preflight = (origin: string, path = '/intervals', method = 'POST') =>
  fetch(`${inject('apiUrl')}${path}`, {
    method: 'OPTIONS',
    headers: { origin, 'access-control-request-method': method, 'access-control-request-headers': 'x-api-key,content-type,authorization' },
  });
const corsHeaderNames = (headers: Headers) => [...headers.keys()].filter((name) => name.startsWith('access-control-allow-'));

describe('CORS (one allow-list, CORS_ORIGINS)', () => {
  it.each(['/intervals', '/videoDevice/all/totalDevices', '/api/authService/auth/signin', '/watcher/{watcherid}'.replace('{watcherid}', 'abc')])(
    'preflight of %s from a listed origin answers 204 with that origin and the three request headers',
    async (path) => {
      const res = await preflight(allowed(), path);
      expect(res.status).toBe(204);
      expect(res.headers.get('access-control-allow-origin')).toBe(allowed());
      expect(res.headers.get('access-control-allow-headers')?.split(',').sort()).toEqual(['authorization', 'content-type', 'idempotency-key', 'x-api-key']);
      expect(res.headers.get('access-control-allow-methods')).toContain('POST');
      expect(res.headers.get('access-control-allow-credentials')).toBeNull();
    },
  );

  it('preflight from the same page opened as 127.0.0.1 answers 204 with that origin', async () => {
    const res = await preflight(byAddress());
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe(byAddress());
  });

  it.each([OTHER, 'null', `${allowed()}.evil.example`, allowed().replace('localhost', '127.0.0.2'), allowed().replace(/:\d+$/, ':1')])(
    'preflight from %s gets no Access-Control-Allow-* header',
    async (origin) => {
      const res = await preflight(origin);
      expect(res.status).toBe(403);
      expect(corsHeaderNames(res.headers)).toEqual([]);
    },
  );

  it('an answer to a listed origin names that origin, never * and never credentials', async () => {
    const res = await api('GET', '/intervals', { headers: { origin: allowed() } });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe(allowed());
    expect(res.headers.get('access-control-allow-credentials')).toBeNull();
    expect(res.headers.get('vary')?.toLowerCase()).toContain('origin');
  });

  it('answers and errors to any other origin carry no Access-Control-Allow-* header', async () => {
    for (const res of [
      await api('GET', '/intervals', { headers: { origin: OTHER } }),
      await api('POST', '/videoDevice/all/totalDevices', { headers: { origin: OTHER }, body: {} }),
      await api('GET', '/api/authService/auth/me', { headers: { origin: OTHER } }),
    ]) {
      expect(res.status).toBeLessThan(500);
      expect(corsHeaderNames(res.headers)).toEqual([]);
    }
  });
});

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const available = existsSync(CHROMIUM);

describe('CORS in headless Chromium', () => {
  let browser: Browser;
  let otherPage: Server;
  let otherOrigin = '';

  beforeAll(async () => {
    if (!available) return;
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
    // a page on an origin that is not listed
    otherPage = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>other</title>'));
    await new Promise<void>((listening) => otherPage.listen(0, listening));
    otherOrigin = `http://localhost:${(otherPage.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await browser?.close();
    await new Promise((closed) => (otherPage ? otherPage.close(closed) : closed(undefined)));
  });

  /** What a script on `pageUrl` gets when it calls the API with the key and a JSON body. */
  const callFrom = async (pageUrl: string) => {
    const page = await browser.newPage();
    try {
      await page.goto(pageUrl);
      return await page.evaluate(
        async ({ url, key }) => {
          try {
            const res = await fetch(`${url}/videoDevice/all/totalDevices`, {
              method: 'POST',
              headers: { 'x-api-key': key, 'content-type': 'application/json' },
              body: JSON.stringify({ regionName: 'all', locationName: 'all', roomName: 'all' }),
            });
            return { status: res.status, body: await res.json() };
          } catch (error) {
            return { error: String(error) };
          }
        },
        { url: inject('apiUrl'), key: inject('apiKey') },
      );
    } finally {
      await page.close();
    }
  };

  it.skipIf(!available)('a page on the allowed origin (the docs page) calls the API, opened as localhost or as 127.0.0.1', async () => {
    expect(await callFrom(inject('docsUrl'))).toEqual({ status: 200, body: [240] });
    expect(await callFrom(inject('docsUrl').replace('localhost', '127.0.0.1'))).toEqual({ status: 200, body: [240] });
  });

  it.skipIf(!available)('a page on another origin cannot read the API', async () => {
    const answer = await callFrom(`${otherOrigin}/`);
    expect(answer).toEqual({ error: expect.stringContaining('Failed to fetch') });
  });
});
