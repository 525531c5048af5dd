import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';

/** Where journeys leave screenshots for humans (git-ignored). */
export const SCREENSHOT_DIR = join(import.meta.dirname, '..', '..', 'test-results', 'e2e');

/** A phone-sized screen: the site is built mobile first. */
export const PHONE_VIEWPORT = { width: 390, height: 844 } as const;
export const DESKTOP_VIEWPORT = { width: 1440, height: 900 } as const;

const DEBIAN_CHROMIUM = '/usr/bin/chromium';

/**
 * The Chromium to drive: CHROMIUM_PATH when set, else the system Chromium, else the one the
 * @sparticuz/chromium package ships inside the npm registry (so a fresh machine needs nothing
 * beyond `npm ci`; a browser download of Playwright's own would fail on a closed network).
 */
export async function chromiumExecutable(): Promise<string> {
  const configured = process.env.CHROMIUM_PATH;
  if (configured) {
    if (!existsSync(configured)) throw new Error(`CHROMIUM_PATH=${configured} does not exist`);
    return configured;
  }
  if (existsSync(DEBIAN_CHROMIUM)) return DEBIAN_CHROMIUM;
  const { default: shipped } = await import('@sparticuz/chromium');
  return shipped.executablePath();
}

/**
 * Flags for a headless run as root on a machine without a GPU or outside network: background
 * services would otherwise keep dialling out and fill the logs with refused connections.
 */
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-dev-shm-usage',
];

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: await chromiumExecutable(), headless: true, args: CHROMIUM_ARGS });
}

/** A fresh profile (storage, service workers, cache) with a phone viewport and touch. */
export async function newPhoneContext(browser: Browser): Promise<BrowserContext> {
  return browser.newContext({
    viewport: PHONE_VIEWPORT,
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
    serviceWorkers: 'allow',
  });
}

/** Saves a full-page screenshot under test-results/e2e/<name>.png. */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}.png`), fullPage: true });
}
