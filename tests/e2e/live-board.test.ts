import { createServer, type Server } from 'node:http';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
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
 * severity within 10 s, with no reload and nobody calling the API for it. The board is opened
 * at 127.0.0.1 under npm start's default CORS allow-list. Then its states (loading, stale,
 * unreachable: words in place of the figures, never zeros), its grouped view, legend, marks,
 * times and alarm pages; the last test stops the API under the open board.
 */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const available = existsSync(CHROMIUM);
if (!available) console.warn(`status board test skipped: no Chromium at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH)`);

const KEY = 'board-e2e-api-key';
const TOKEN = 'board-vendor-token';
// as many devices and rooms as npm start's demo fleet (75 rooms in 12 locations): groups of several rooms
const fleet: ProviderDevice[] = simulatedFleet({ seed: 7, devices: 300 }).map((d) => ({ ...d, status: { ...d.status, connected: true } }));
const target = fleet[5]!;
const tileOf = (d: ProviderDevice) => `[data-room="${[d.details.region, d.details.location, d.details.room].join(' / ')}"]`;

let vendor: Server;
let instance: Instance;
let browser: Browser;
let stopped = false;
/** The board as a browser opening it by address reaches it (npm start prints it as localhost). */
const boardAt127 = () => instance.boardUrl.replace('//localhost:', '//127.0.0.1:');
const ALL = { regionName: 'all', locationName: 'all', roomName: 'all' };

/** A page of the board in Tokyo's time zone, in British English, that records what went wrong in it. */
const openBoard = async (options: { pollSeconds?: number } = {}) => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, timezoneId: 'Asia/Tokyo', locale: 'en-GB' });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(error.message));
  page.on('console', (message) => message.type() === 'error' && problems.push(message.text()));
  page.on('response', (response) => response.status() >= 400 && problems.push(`${response.status()} ${response.url()}`));
  if (options.pollSeconds !== undefined) {
    await page.route('**/board/config.json', async (route) => {
      const config = (await (await route.fetch()).json()) as Record<string, unknown>;
      await route.fulfill({ json: { ...config, pollSeconds: options.pollSeconds } });
    });
  }
  await page.goto(boardAt127());
  return { page, problems };
};

/** What the page shows a person (hidden elements left out). */
const shownText = (page: Page) => page.evaluate<string>('document.body.innerText');

/** Taken in the same moment the page says "stale": what it shows then. */
const STALE_SNAPSHOT = `(() => {
  if (document.querySelector('#banner')?.getAttribute('data-state') !== 'stale') return false;
  const shown = [...document.querySelectorAll('[id^="count-"], .tile, #alarms li')].filter((element) => element.checkVisibility());
  return {
    figuresHidden: document.querySelector('#figures').hidden,
    figuresShown: shown.length,
    text: document.body.innerText,
    panel: document.querySelector('#no-figures').innerText,
    since: document.querySelector('#no-figures-since').textContent,
  };
})()`;

/** In place of the figures: the state in words, no count, no tile, no "No open alarms". */
const expectNoFigures = async (page: Page, words: RegExp) => {
  expect(await page.isVisible('#figures')).toBe(false);
  expect(await page.isVisible('#no-figures')).toBe(true);
  expect(await page.locator('[id^="count-"]:visible, .tile:visible, #alarms li:visible').count()).toBe(0);
  const text = await shownText(page);
  expect(text).toMatch(words);
  expect(text).not.toContain('No open alarms');
};

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
    // no CORS_ORIGINS: npm start's default admits the board's page, as localhost and as 127.0.0.1
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
  if (!stopped) await instance?.stop();
  await new Promise<void>((resolve) => (vendor ? vendor.close(() => resolve()) : resolve()));
});

describe('status board (npm start, headless Chromium)', () => {
  it.skipIf(!available)('opened at 127.0.0.1, shows the counts the API answers, then turns a room to the watcher severity within 10 s of its device going offline, without reloading', async () => {
    const { page, problems: failures } = await openBoard();
    expect(new URL(instance.boardUrl).origin).not.toBe(new URL(instance.url).origin);
    expect(new URL(page.url()).hostname).toBe('127.0.0.1');
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
    // nothing failed in the page: no script error, no 404 (the favicon included)
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
    const { page, problems: failures } = await openBoard();
    try {
      await page.waitForSelector('#connection[data-state="live"]', { timeout: 30_000 });
      const tile = page.locator(`#maintenance-rooms ${tileOf(held)}`);
      await tile.waitFor({ timeout: 10_000 });
      expect(await page.isVisible('#maintenance-section')).toBe(true);
      expect(await tile.getAttribute('data-maintenance')).toBe(window.id);
      expect(await tile.textContent()).toMatch(/Projector swap until \d{1,2} \w{3} \d{4}, \d{2}:\d{2}:\d{2} GMT\+9/);
      expect(await tile.getAttribute('data-marks')).toContain('maintenance');
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

  it.skipIf(!available)('says "loading" in place of the figures until the first picture arrives, never zeros', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    // the first picture is held back until the test lets it through
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/live/rooms', async (route) => {
      await held;
      await route.continue();
    });
    await page.goto(boardAt127());
    await page.waitForSelector('#banner[data-state="loading"]');
    expect(await page.getAttribute('#connection', 'data-state')).toBe('loading');
    await expectNoFigures(page, /Loading/);
    expect(await page.textContent('#banner')).toContain('waiting for the first answer from the API');
    release();
    await page.waitForSelector('#connection[data-state="live"]', { timeout: 30_000 });
    expect(await page.isVisible('#figures')).toBe(true);
    expect(await page.isVisible('#banner')).toBe(false);
    await context.close();
  });

  it.skipIf(!available)('groups rooms by region and location, the worst first, each headed with its counts and worst status; a legend; times with date, zone and UTC on hover', async () => {
    const { page, problems } = await openBoard();
    await page.waitForSelector('#connection[data-state="live"]', { timeout: 30_000 });
    await page.waitForSelector(`${tileOf(target)}[data-status="Major"]`, { timeout: 10_000 });
    const rooms = await call<{ region: string; location: string; room: string; roomStatus: string }[]>('POST', '/live/rooms', ALL);
    const rank = (status: string) => ['Critical', 'Major', 'Minor', 'Info', 'OK'].indexOf(status);
    const groups = await page.$$eval('#rooms .group', (sections) =>
      sections.map((section) => ({
        region: section.getAttribute('data-region'),
        location: section.getAttribute('data-location'),
        worst: section.getAttribute('data-worst'),
        heading: section.querySelector('h3')?.textContent ?? '',
        tiles: [...section.querySelectorAll('.tile')].map((tile) => ({ room: tile.getAttribute('data-room'), status: tile.getAttribute('data-status') ?? '' })),
      })),
    );
    // one group per (region, location) of the API's rooms, holding exactly its rooms
    const places = new Set(rooms.map((r) => `${r.region} / ${r.location}`));
    expect(groups.map((g) => `${g.region} / ${g.location}`).sort()).toEqual([...places].sort());
    for (const group of groups) {
      const own = rooms.filter((r) => r.region === group.region && r.location === group.location);
      expect(group.tiles.map((t) => t.room).sort()).toEqual(own.map((r) => `${r.region} / ${r.location} / ${r.room}`).sort());
      const worst = own.map((r) => r.roomStatus).sort((a, b) => rank(a) - rank(b))[0]!;
      expect(group.worst).toBe(worst);
      expect(group.heading).toContain(`worst: ${worst}`);
      expect(group.heading).toContain(`${own.length} room${own.length === 1 ? '' : 's'}: `);
      expect(group.heading).toContain(`${own.filter((r) => r.roomStatus === worst).length} ${worst}`);
      // the worst rooms first inside a group
      const ranks = group.tiles.map((t) => rank(t.status));
      expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
    }
    // the worst group first: the target's, the one Major room of the fleet
    expect(groups[0]).toMatchObject({ region: target.details.region, location: target.details.location, worst: 'Major' });
    expect(groups[0]!.tiles[0]!.status).toBe('Major');
    const worsts = groups.map((g) => rank(g.worst ?? 'OK'));
    expect(worsts).toEqual([...worsts].sort((a, b) => a - b));

    // the legend names every status and every mark
    const legend = await page.textContent('#legend');
    for (const words of ['Critical', 'Major', 'Minor', 'Info', 'OK', 'acknowledged', 'silenced', 'in maintenance']) expect(legend).toContain(words);
    expect(await page.isVisible('#legend')).toBe(true);
    expect(await page.textContent('#time-zone')).toBe('Asia/Tokyo');

    // an alarm's time: date, time and zone in the viewer's zone; UTC on hover
    const alarms = await call<{ items: { devicesn: string; raisedAt: string }[] }>('GET', '/alarms?limit=100');
    const raised = alarms.items.find((a) => a.devicesn === target.devicesn)!;
    const time = page.locator('#alarms li', { hasText: target.devicesn }).locator('time');
    const shown = new Intl.DateTimeFormat('en-GB', { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', second: '2-digit', timeZoneName: 'short', timeZone: 'Asia/Tokyo' }).format(new Date(raised.raisedAt));
    expect(await time.textContent()).toBe(shown);
    expect(shown).toMatch(/^\d{1,2} \w{3} \d{4}, \d{2}:\d{2}:\d{2} GMT\+9$/);
    expect(await time.getAttribute('title')).toBe(`${raised.raisedAt.slice(0, 19).replace('T', ' ')} UTC`);
    expect(await time.getAttribute('datetime')).toBe(raised.raisedAt);
    expect(problems).toEqual([]);
  });

  it.skipIf(!available)('marks tiles acknowledged and silenced as the API says, live', async () => {
    const { page, problems } = await openBoard();
    await page.waitForSelector('#connection[data-state="live"]', { timeout: 30_000 });
    const tile = page.locator(tileOf(target));
    await page.waitForSelector(`${tileOf(target)}[data-status="Major"]`, { timeout: 10_000 });
    expect(await tile.getAttribute('data-marks')).toBe('');
    const alarms = await call<{ items: { id: string; devicesn: string }[] }>('GET', '/alarms?limit=100');
    const alarm = alarms.items.find((a) => a.devicesn === target.devicesn)!;
    await call('POST', `/alarms/${encodeURIComponent(alarm.id)}/ack`, {});
    await expect.poll(() => tile.getAttribute('data-marks'), { timeout: 10_000 }).toBe('acknowledged');
    const silence = await call<{ id: string }>('POST', '/silences', {
      matchers: { region: target.details.region, location: target.details.location, room: target.details.room },
      endsAt: new Date(Date.now() + 3_600_000).toISOString(),
      comment: 'board marks',
    });
    try {
      await expect.poll(() => tile.getAttribute('data-marks'), { timeout: 10_000 }).toBe('acknowledged silenced');
      expect(await tile.locator('.mark').allTextContents()).toEqual(['✔', '🔕']);
      const item = page.locator('#alarms li', { hasText: target.devicesn });
      expect(await item.getAttribute('data-marks')).toBe('acknowledged silenced');
    } finally {
      await call('DELETE', `/silences/${silence.id}`);
      await call('DELETE', `/alarms/${encodeURIComponent(alarm.id)}/ack`);
    }
    // the silence's end is pushed (`unsilenced`); an acknowledgement taken back is not, and shows at the next load
    await expect.poll(() => tile.getAttribute('data-marks'), { timeout: 10_000 }).toBe('acknowledged');
    await page.reload();
    await page.waitForSelector('#connection[data-state="live"]', { timeout: 30_000 });
    await expect.poll(() => page.locator(tileOf(target)).getAttribute('data-marks'), { timeout: 10_000 }).toBe('');
    expect(problems).toEqual([]);
  });

  it.skipIf(!available)('pages through the open alarms with the API cursor, older and back', async () => {
    // 24 more devices offline: 25 Major alarms, three pages of 10
    const offline = fleet.filter((d) => d !== target).slice(10, 34);
    for (const device of offline) device.status.connected = false;
    try {
      await expect.poll(async () => (await call<unknown[]>('GET', '/alarms')).length, { timeout: 20_000 }).toBe(25);
      const { page, problems } = await openBoard();
      await page.waitForSelector('#connection[data-state="live"]', { timeout: 30_000 });
      const ids = () => page.$$eval('#alarms li', (items) => items.map((item) => item.getAttribute('data-id')));
      const first = await call<{ items: { id: string }[]; nextCursor: string }>('GET', '/alarms?limit=10');
      const second = await call<{ items: { id: string }[]; nextCursor: string }>('GET', `/alarms?limit=10&cursor=${encodeURIComponent(first.nextCursor)}`);
      const third = await call<{ items: { id: string }[]; nextCursor: string | null }>('GET', `/alarms?limit=10&cursor=${encodeURIComponent(second.nextCursor)}`);
      expect(third.nextCursor).toBeNull();
      await expect.poll(ids, { timeout: 15_000 }).toEqual(first.items.map((a) => a.id));
      expect(await page.textContent('#firing-count')).toBe('(25 firing)');
      expect(await page.isDisabled('#alarms-newer')).toBe(true);
      await page.click('#alarms-older');
      await expect.poll(ids, { timeout: 15_000 }).toEqual(second.items.map((a) => a.id));
      expect(await page.textContent('#alarm-page')).toBe('page 2');
      await page.click('#alarms-older');
      await expect.poll(ids, { timeout: 15_000 }).toEqual(third.items.map((a) => a.id));
      expect(await page.isDisabled('#alarms-older')).toBe(true);
      await page.click('#alarms-newer');
      await page.click('#alarms-newer');
      await expect.poll(ids, { timeout: 15_000 }).toEqual(first.items.map((a) => a.id));
      expect(await page.isDisabled('#alarms-newer')).toBe(true);
      // the picture of docs/status-board.png (BOARD_SCREENSHOT=docs/status-board.png): one room acknowledged
      const acked = (await call<{ id: string; devicesn: string }[]>('GET', '/alarms')).find((a) => a.devicesn === target.devicesn)!;
      await call('POST', `/alarms/${encodeURIComponent(acked.id)}/ack`, { comment: 'on it' });
      // all of the room's alarms (✔) or some of them (✔ 1/2): the room may hold other offline devices
      await expect.poll(() => page.locator(`${tileOf(target)} .mark`).count(), { timeout: 10_000 }).toBeGreaterThan(0);
      await page.screenshot({ path: process.env.BOARD_SCREENSHOT ?? join(tmpdir(), 'status-board.png') });
      expect(problems).toEqual([]);
    } finally {
      for (const device of offline) device.status.connected = true;
    }
    await expect.poll(async () => (await call<unknown[]>('GET', '/alarms')).length, { timeout: 20_000 }).toBe(1);
  });

  it.skipIf(!available)('says "stale" in place of the figures once the API has not answered for longer than the poll interval', async () => {
    const { page } = await openBoard({ pollSeconds: 1 });
    await page.waitForSelector('#connection[data-state="live"]', { timeout: 30_000 });
    // from now on every call hangs: no failure, no answer (the socket stays open)
    await page.route(`${instance.url}/**`, () => undefined);
    // what the page shows at the moment it says "stale" (a call sent before the route may still
    // answer late, and the hung calls give up after 5 s: the state moves on by itself)
    const seen = (await (await page.waitForFunction(STALE_SNAPSHOT, undefined, { timeout: 15_000 })).jsonValue()) as {
      figuresHidden: boolean; figuresShown: number; text: string; panel: string; since: string;
    };
    expect(seen.figuresHidden).toBe(true);
    expect(seen.figuresShown).toBe(0);
    expect(seen.text).not.toContain('No open alarms');
    expect(seen.panel).toMatch(/^Stale/);
    expect(seen.panel).toMatch(/longer than the poll interval \(1 s\)/);
    expect(seen.since).toMatch(/^Last update \d+ s ago, at /);
    await page.unroute(`${instance.url}/**`);
    await page.waitForSelector('#connection[data-state="live"]', { timeout: 30_000 });
    expect(await page.isVisible('#figures')).toBe(true);
  });

  it.skipIf(!available)('opened while the API cannot be reached, says so in words and shows no counts', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.route(`${instance.url}/**`, (route) => route.abort('connectionrefused'));
    await page.goto(boardAt127());
    await page.waitForSelector('#banner[data-state="unreachable"]', { timeout: 10_000 });
    await expectNoFigures(page, /API unreachable/);
    expect(await page.textContent('#no-figures-since')).toBe('No update from the API yet.');
    expect(await page.textContent('#no-figures-detail')).toContain(instance.url);
    await context.close();
  });
});

describe('status board when the API stops (the last test: it stops npm start)', () => {
  it.skipIf(!available)('says the API is unreachable, in words, and hides every count it showed', async () => {
    const { page } = await openBoard({ pollSeconds: 1 });
    await page.waitForSelector('#connection[data-state="live"]', { timeout: 30_000 });
    expect(await page.isVisible('#count-TotalRooms')).toBe(true);
    stopped = true;
    await instance.stop();
    await page.waitForSelector('#banner[data-state="unreachable"]', { timeout: 20_000 });
    await expectNoFigures(page, /API unreachable/);
    expect(await page.textContent('#banner')).toMatch(/API unreachable: no figures to show\. Last update \d+ s ago/);
    // a call in flight while the server shuts down may still get its 502 ("answered 502"); the
    // retries after it find nobody there, and say so
    await page.waitForFunction(`/did not answer/.test(document.querySelector('#no-figures-detail')?.textContent ?? '')`, undefined, { timeout: 10_000 });
    expect(await page.textContent('#no-figures-detail')).toMatch(/did not answer.*Retrying every 1 s/);
  });
});
