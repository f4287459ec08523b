import { existsSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { api } from '../support/api';
import { PRINCIPAL_PASSWORD, adminToken, userWith } from '../support/principals';

/*
 * The status board in headless Chromium against the ACCESS_MODE=user server: it asks who you
 * are, then shows only what that person may see (DESIGN §5; issue 26 item 7).
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
});
