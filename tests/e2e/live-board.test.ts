import { createServer, type Server } from 'node:http';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simulatedFleet } from '#lib/inventory/provider/simulated';
import type { ProviderDevice } from '#lib/devices/types';
import type { Instance } from '../../scripts/local/instance';
import { ownInstance } from '../support/instance';
import { freePort } from '../../scripts/local/ports';

/*
 * The status board in headless Chromium against a private `npm start` whose devices come from
 * a vendor API this test controls (DEVICE_PROVIDER=http), synced and evaluated every second
 * by npm start's own loops: a device going offline must turn its room's tile to the watcher's
 * severity within 10 s, with no reload and nobody calling the API for it.
 */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const available = existsSync(CHROMIUM);
if (!available) console.warn(`status board test skipped: no Chromium at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH)`);

const KEY = 'board-e2e-api-key';
const TOKEN = 'board-vendor-token';
const fleet: ProviderDevice[] = simulatedFleet({ seed: 7, devices: 40 }).map((d) => ({ ...d, status: { ...d.status, connected: true } }));
const target = fleet[5]!;
const tileOf = (d: ProviderDevice) => `[data-room="${[d.details.region, d.details.location, d.details.room].join(' / ')}"]`;

let vendor: Server;
let instance: Instance;
let browser: Browser;

const call = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
  const response = await fetch(`${instance.url}${path}`, {
    method,
    headers: { 'x-api-key': KEY, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  expect(response.status, `${method} ${path}`).toBeLessThan(300);
  return (await response.json()) as T;
};

beforeAll(async () => {
  if (!available) return;
  vendor = createServer((req, res) => {
    const send = (status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (req.headers.authorization !== `Bearer ${TOKEN}`) return send(401, { message: 'no' });
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path === '/v1/devices') return send(200, { devices: fleet });
    const device = fleet.find((d) => `/v1/devices/${d.devicesn}` === path);
    return device ? send(200, device) : send(404, { message: 'unknown' });
  });
  await new Promise<void>((resolve) => vendor.listen(0, '127.0.0.1', resolve));
  const address = vendor.address();
  const docsPort = await freePort();
  instance = await ownInstance('.esbuild-e2e-board', {
    API_KEY: KEY,
    DOCS_PORT: String(docsPort),
    // the board's own origin, the one browser origin this API answers
    CORS_ORIGINS: `http://localhost:${docsPort}`,
    DEVICE_PROVIDER: 'http',
    DEVICE_PROVIDER_URL: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/v1/`,
    DEVICE_PROVIDER_TOKEN: TOKEN,
    SYNC_INTERVAL_SECONDS: '1',
    EVALUATE_INTERVAL_SECONDS: '1',
    DEMO_WATCHER: '0',
    PASSWORD_SCRYPT_LOG_N: '14',
  });
  // evaluate every second; a watcher that makes any offline device Major
  await call('POST', '/intervals', {
    intervalFeedbackTestApi: 60, intervalDeviceStatus: 30, intervalDeviceStatusEspera: 10, intervalAllDevices: 300,
    intervalDeviceWatchers: 1, intervalDeviceWatchersTimeout: 20, intervalRefreshToken: 900, intervalDeviceInternalConsult: 120, intervalDeviceSyncInfo: 600,
  });
  await call('POST', '/watcher', {
    user: 'ops', dashboard: 'board', service: 'video', type: 'offline', allDevices: true, severity: 2, sendEmail: false,
    operations: { type: 'device', operatorType: 'AND', conditions: [{ element: 'status.connected', operator: '==', value: 'false' }] },
  });
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}, 700_000);

afterAll(async () => {
  await browser?.close();
  await instance?.stop();
  await new Promise<void>((resolve) => (vendor ? vendor.close(() => resolve()) : resolve()));
});

describe('status board (npm start, headless Chromium)', () => {
  it.skipIf(!available)('shows the counts the API answers, then turns a room to the watcher severity within 10 s of its device going offline, without reloading', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const failures: string[] = [];
    page.on('pageerror', (error) => failures.push(error.message));
    expect(new URL(instance.boardUrl).origin).not.toBe(new URL(instance.url).origin);
    await page.goto(instance.boardUrl);
    await page.waitForSelector('#connection[data-state="live"]', { timeout: 30_000 });
    await page.waitForSelector(`${tileOf(target)}[data-status="OK"]`, { timeout: 10_000 });

    const all = { regionName: 'all', locationName: 'all', roomName: 'all' };
    const counts = await call<Record<string, number>>('POST', '/videoDevice/room/roomStatusCount', all);
    const shown = await page.$$eval('[id^="count-"]', (cells) => Object.fromEntries(cells.map((c) => [c.id.slice('count-'.length), Number(c.textContent)])));
    expect(shown).toEqual(counts);
    expect(await page.locator('.tile').count()).toBe(counts.TotalRooms);

    await page.evaluate('window.sameDocument = true');
    const before = Date.now();
    target.status.connected = false;
    await page.waitForSelector(`${tileOf(target)}[data-status="Major"]`, { timeout: 10_000 });
    const seconds = (Date.now() - before) / 1000;
    console.log(`room turned Major on the board ${seconds.toFixed(1)} s after its device went offline at the vendor`);
    expect(await page.evaluate('window.sameDocument')).toBe(true);
    expect(await page.textContent('#connection')).toBe('live');
    await page.waitForFunction(`document.querySelector('#count-MajorStatus')?.textContent === '1'`);
    await page.waitForSelector(`#alarms li[data-severity="Major"]`);
    expect(await page.textContent('#alarms')).toContain(target.devicesn);
    await page.screenshot({ path: process.env.BOARD_SCREENSHOT ?? join(tmpdir(), 'status-board.png') });
    expect(failures).toEqual([]);
  });

  it.skipIf(!available)('says "reconnecting" and polls while the socket is down, then is live again on a new ticket', async () => {
    const page = await browser.newPage();
    // every socket of the page passes through the test, which can drop it like a network would
    const sockets: { close: () => Promise<void> }[] = [];
    await page.routeWebSocket(/[?&]ticket=/, (route) => {
      route.connectToServer();
      sockets.push(route);
    });
    const polls: string[] = [];
    page.on('request', (request) => request.url().endsWith('/live/rooms') && polls.push(request.url()));
    await page.goto(instance.boardUrl);
    await page.waitForSelector('#connection[data-state="live"]', { timeout: 30_000 });
    const loads = polls.length;
    await sockets[0]!.close();
    await page.waitForSelector('#connection[data-state="reconnecting"]', { timeout: 5_000 });
    expect(await page.textContent('#connection')).toContain('reconnecting');
    await page.waitForSelector('#connection[data-state="live"]', { timeout: 30_000 });
    expect(sockets.length).toBe(2);
    expect(polls.length).toBeGreaterThan(loads);
  });

  it.skipIf(!available)('shows a room a maintenance window holds in its own group, with the window and its end, and back in the grid once it is deleted', async () => {
    const held = fleet[9]!;
    const started = new Date(Date.now() - 5 * 60_000);
    const pad = (n: number) => String(n).padStart(2, '0');
    const window = await call<{ id: string }>('POST', '/maintenance', {
      matchers: held.details,
      schedule: { days: ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'], start: `${pad(started.getUTCHours())}:${pad(started.getUTCMinutes())}`, durationMinutes: 60, timeZone: 'UTC' },
      comment: 'Projector swap',
    });
    const page = await browser.newPage();
    const failures: string[] = [];
    page.on('pageerror', (error) => failures.push(error.message));
    try {
      await page.goto(instance.boardUrl);
      await page.waitForSelector('#connection[data-state="live"]', { timeout: 30_000 });
      const tile = page.locator(`#maintenance-rooms ${tileOf(held)}`);
      await tile.waitFor({ timeout: 10_000 });
      expect(await page.isVisible('#maintenance-section')).toBe(true);
      expect(await tile.getAttribute('data-maintenance')).toBe(window.id);
      expect(await tile.textContent()).toMatch(/Projector swap until \d{1,2}:\d{2}/);
      expect(await page.locator(`#rooms ${tileOf(held)}`).count()).toBe(0);
      expect(await page.locator('#maintenance-rooms .tile').count()).toBe(1);
      const counts = await call<Record<string, number>>('POST', '/videoDevice/room/roomStatusCount', { regionName: 'all', locationName: 'all', roomName: 'all' });
      expect(await page.locator('.tile').count()).toBe(counts.TotalRooms);
    } finally {
      await call('DELETE', `/maintenance/${window.id}`).catch(() => undefined);
    }
    await page.reload();
    await page.waitForSelector(`#rooms ${tileOf(held)}`, { timeout: 10_000 });
    expect(await page.isVisible('#maintenance-section')).toBe(false);
    expect(failures).toEqual([]);
  });
});
