// Debian's Chromium for the console's browser tests, driven by puppeteer-core (which downloads
// nothing): where it is, whether to skip (without it, except in CI), and a page that collects the
// JavaScript errors it logs.
import { existsSync, mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';

const CHROMIUM = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].find((path) => path && existsSync(path));
export const skip = CHROMIUM || process.env.CI ? false : 'needs Chromium (apt-get install chromium); CI runs it';
/** Where the tests' screenshots go. */
export const ARTIFACTS = process.env.TEST_ARTIFACTS_DIR ?? fileURLToPath(new URL('./artifacts/', import.meta.url));

/** Chromium with one 1280x900 page; `jsErrors` receives every JavaScript error the page logs. */
export async function launchPage(jsErrors: string[]): Promise<{ browser: Browser; page: Page }> {
  mkdirSync(ARTIFACTS, { recursive: true });
  const browser = await puppeteer.launch({
    executablePath: CHROMIUM ?? '/usr/bin/chromium',
    // Root in a container has no user namespace for Chromium's sandbox; nothing reaches out to the network.
    args: ['--no-sandbox', '--disable-dev-shm-usage', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
  });
  const page = await browser.newPage();
  await page.setViewport({ width: 1280, height: 900 });
  page.on('pageerror', (err) => jsErrors.push(`pageerror: ${err instanceof Error ? err.message : String(err)}`));
  page.on('console', (message) => {
    // A refused request (a wrong password's 401) is logged by Chromium as a network message, not a JavaScript error.
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) jsErrors.push(`console: ${message.text()}`);
  });
  return { browser, page };
}
