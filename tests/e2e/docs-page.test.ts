import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { routes } from '../support/routes';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const available = existsSync(CHROMIUM);
if (!available) console.warn(`docs page test skipped: no Chromium at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH)`);

describe('API docs page (npm start, headless Chromium)', () => {
  it.skipIf(!available)('lists every endpoint of the API', async () => {
    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
    try {
      const page = await browser.newPage();
      await page.goto(inject('docsUrl'));
      await page.waitForSelector('.opblock-summary-path', { timeout: 30_000 });
      await page.screenshot({ path: join(tmpdir(), 'docs-page.png'), fullPage: false });
      const shown = await page.$$eval('.opblock', (blocks) =>
        blocks.map((b) => `${b.querySelector('.opblock-summary-method')?.textContent?.trim()} ${b.querySelector('.opblock-summary-path')?.getAttribute('data-path')}`),
      );
      const expected = (await routes()).map((r) => `${r.method} /${r.path}`);
      expect(shown.sort()).toEqual(expected.sort());
      expect(await page.title()).toBe('Device-monitoring API');
    } finally {
      await browser.close();
    }
  });
});
