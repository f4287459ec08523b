import { existsSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { api } from '../support/api';
import { PRINCIPAL_PASSWORD, adminToken, userWith } from '../support/principals';

/*
 * The status board in headless Chromium against the ACCESS_MODE=user server: it says it is not
 * authorised and asks who you are, then shows only what that person may see (DESIGN §5), keeps
 * the token in memory only, and lets a person whose role allows it acknowledge an alarm and
 * silence a room.
 */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const available = existsSync(CHROMIUM);
if (!available) console.warn(`board sign-in test skipped: no Chromium at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH)`);

const boardUrl = () => inject('docsUrl').replace(/\/docs$/, '/board/');
let browser: Browser;

beforeAll(async () => {
  if (!available) return;
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
});
afterAll(async () => {
  await browser?.close();
});

const signInOn = async (page: Page, username: string, password: string) => {
  await page.goto(boardUrl());
  await page.locator('#signin').waitFor({ state: 'visible', timeout: 15_000 });
  await page.fill('#username', username);
  await page.fill('#password', password);
  await page.click('#signin button[type=submit]');
};

const attributes = async (page: Page, selector: string, name: string) =>
  Promise.all((await page.locator(selector).all()).map(async (element) => (await element.getAttribute(name)) ?? ''));
const regions = async (page: Page) => (await attributes(page, '#rooms .tile', 'data-room')).map((key) => key.split(' / ')[0]);

describe.runIf(available)('status board, ACCESS_MODE=user', () => {
  it('before anyone signs in, says it is not authorised in place of the figures and shows no count', async () => {
    const page = await browser.newPage();
    await page.goto(boardUrl());
    await page.locator('#signin').waitFor({ state: 'visible', timeout: 15_000 });
    expect(await page.getAttribute('#banner', 'data-state')).toBe('unauthorised');
    expect(await page.textContent('#banner')).toContain('Not authorised');
    expect(await page.textContent('#no-figures')).toContain('Sign in to see the board.');
    expect(await page.isVisible('#figures')).toBe(false);
    expect(await page.locator('[id^="count-"]:visible, .tile:visible').count()).toBe(0);
    expect(await page.evaluate<string>('document.body.innerText')).not.toContain('No open alarms');
    await page.close();
  });

  it('asks who you are, refuses a wrong password, then shows the fleet to an admin', async () => {
    const page = await browser.newPage();
    await signInOn(page, inject('admin').username, 'not-the-password-at-all');
    await expect.poll(() => page.textContent('#signin-error'), { timeout: 10_000 }).toBe('Invalid username or password');
    await page.fill('#password', inject('admin').password);
    await page.click('#signin button[type=submit]');
    await expect.poll(() => page.isVisible('#signin'), { timeout: 10_000 }).toBe(false);
    await expect.poll(() => page.textContent('#who')).toBe(`signed in as ${inject('admin').username}`);
    await expect.poll(() => page.locator('#rooms .tile').count(), { timeout: 20_000 }).toBeGreaterThan(0);
    await expect.poll(() => page.getAttribute('#connection', 'data-state'), { timeout: 20_000 }).toBe('live');
    await page.close();
  });

  it('shows a region-scoped viewer only the rooms of its region', async () => {
    const admin = await adminToken();
    const names = await api<string[]>('POST', '/filters/region', { token: admin, body: {} });
    const region = names.body[0]!;
    const viewer = await userWith(admin, 'viewer', [{ region }]);
    const page = await browser.newPage();
    await signInOn(page, viewer.username, PRINCIPAL_PASSWORD);
    await expect.poll(() => page.locator('#rooms .tile').count(), { timeout: 20_000 }).toBeGreaterThan(0);
    expect(new Set(await regions(page))).toEqual(new Set([region]));
    const options = await attributes(page, '#region option', 'value');
    expect(options).toEqual(['all', region]);
    await page.click('#signout');
    await expect.poll(() => page.isVisible('#signin')).toBe(true);
    await page.close();
  });

  it('keeps the token in memory only: nothing in localStorage or sessionStorage, and a reload asks again', async () => {
    const page = await browser.newPage();
    await signInOn(page, inject('admin').username, inject('admin').password);
    await expect.poll(() => page.getAttribute('#connection', 'data-state'), { timeout: 20_000 }).toBe('live');
    expect(await page.evaluate<number>('localStorage.length + sessionStorage.length')).toBe(0);
    await page.reload();
    await page.locator('#signin').waitFor({ state: 'visible', timeout: 15_000 });
    await page.close();
  });

  describe('actions, with alarms firing', () => {
    let admin = '';
    let watcherId = '';
    const silences: string[] = [];
    let operator: { username: string; token: string };

    beforeAll(async () => {
      admin = await adminToken();
      const watcher = await api<{ id: string }>('POST', '/watcher', {
        token: admin,
        body: {
          user: 'ops', dashboard: 'board', service: 'video', type: 'offline', allDevices: true, severity: 2, sendEmail: false,
          operations: { type: 'device', operatorType: 'AND', conditions: [{ element: 'status.connected', operator: '==', value: 'false' }] },
        },
      });
      expect(watcher.status).toBe(200);
      watcherId = watcher.body.id;
      expect((await api('POST', '/alarms/evaluate', { token: admin })).status).toBe(200);
      operator = await userWith(admin, 'operator');
    }, 120_000);

    afterAll(async () => {
      for (const silence of silences) await api('DELETE', `/silences/${silence}`, { token: admin });
      if (watcherId) await api('DELETE', `/watcher/${watcherId}`, { token: admin });
      await api('POST', '/alarms/evaluate', { token: admin });
    }, 120_000);

    it('lets an operator acknowledge an alarm from the board, as that operator', async () => {
      const page = await browser.newPage();
      await signInOn(page, operator.username, PRINCIPAL_PASSWORD);
      await expect.poll(() => page.getAttribute('#connection', 'data-state'), { timeout: 20_000 }).toBe('live');
      const first = page.locator('#alarms li').first();
      await first.locator('button.ack').waitFor({ timeout: 20_000 });
      const id = (await first.getAttribute('data-id'))!;
      await first.locator('button.ack').click();
      await expect.poll(() => page.locator(`#alarms li[data-id="${id}"]`).getAttribute('data-marks'), { timeout: 10_000 }).toContain('acknowledged');
      expect(await page.locator(`#alarms li[data-id="${id}"] button.ack`).count()).toBe(0);
      const acked = await api<{ id: string; acknowledgedBy?: string }[]>('GET', '/alarms?acknowledged=true', { token: admin });
      expect(acked.body.find((a) => a.id === id)?.acknowledgedBy).toBe(operator.username);
      await page.close();
    });

    it('lets an operator silence a room that is not OK from the board, for the time chosen, and marks its tile', async () => {
      const page = await browser.newPage();
      await signInOn(page, operator.username, PRINCIPAL_PASSWORD);
      await expect.poll(() => page.getAttribute('#connection', 'data-state'), { timeout: 20_000 }).toBe('live');
      // the worst room: the first tile of the first group
      const tile = page.locator('#rooms .group .tile').first();
      await tile.locator('button.silence').waitFor({ timeout: 20_000 });
      const room = (await tile.getAttribute('data-room'))!;
      const [region, location, name] = room.split(' / ');
      await tile.locator('button.silence').click();
      await page.locator('#silence-dialog').waitFor({ state: 'visible' });
      await page.selectOption('#silence-hours', '4');
      await page.fill('#silence-comment', 'projector swap, call Sam');
      await page.click('#silence-submit');
      await page.locator('#silence-dialog').waitFor({ state: 'hidden' });
      const listed = await api<{ id: string; matchers: Record<string, string>; createdBy: string; comment: string; endsAt: string }[]>('GET', '/silences', { token: admin });
      const made = listed.body.find((silence) => silence.comment === 'projector swap, call Sam');
      expect(made).toMatchObject({ matchers: { region, location, room: name }, createdBy: operator.username });
      silences.push(made!.id);
      const hours = (Date.parse(made!.endsAt) - Date.now()) / 3_600_000;
      expect(hours).toBeGreaterThan(3.5);
      expect(hours).toBeLessThanOrEqual(4);
      await expect.poll(() => page.locator(`[data-room="${room}"]`).getAttribute('data-marks'), { timeout: 10_000 }).toContain('silenced');
      expect(await page.textContent('#action-message')).toContain(`Silenced ${room} until`);
      await page.close();
    });

    it('shows a viewer the same alarms without either action', async () => {
      const viewer = await userWith(admin, 'viewer');
      const reader = await browser.newPage();
      await signInOn(reader, viewer.username, PRINCIPAL_PASSWORD);
      await expect.poll(() => reader.locator('#alarms li').count(), { timeout: 20_000 }).toBeGreaterThan(0);
      expect(await reader.locator('.tile[data-status="Major"]').count()).toBeGreaterThan(0);
      expect(await reader.locator('button.ack, button.silence').count()).toBe(0);
      await reader.close();
    });
  });
});
