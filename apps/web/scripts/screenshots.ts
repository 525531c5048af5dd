/**
 * Takes screenshots of the main screens at phone and desktop sizes in several languages, for a
 * visual check. Needs a running server with the built app (CAPTCHA=off):
 *   BASE_URL=http://localhost:3100 node --import tsx apps/web/scripts/screenshots.ts [outDir]
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { chromium, type Page } from 'playwright-core';

const baseUrl = process.env.BASE_URL ?? 'http://localhost:3000';
const outDir = process.argv[2] ?? '/tmp/sorte-shots';
const languages = (process.env.LANGS ?? 'en,pt,cn,th').split(',');
const viewports = [
  { name: 'phone', width: 390, height: 844 },
  { name: 'desktop', width: 1440, height: 900 },
];

async function registerPlayer(page: Page, suffix: string): Promise<string> {
  const username = `shot${suffix}${Date.now().toString(36)}`.slice(0, 20);
  const token = await page.evaluate(async (name) => {
    const response = await fetch('/api/auth/register2?lang=en', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        username: name,
        password: 'secret123',
        password_confirmation: 'secret123',
        realname: 'Maria Silva',
        phone: '11987654321',
        qk_pwd: '123456',
        agree_terms: true,
        is_adult: true,
      }),
    });
    const body = await response.json();
    if (body.status !== 'success') throw new Error(JSON.stringify(body));
    return body.data.token as string;
  }, username);
  return token;
}

async function main(): Promise<void> {
  await mkdir(outDir, { recursive: true });
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
  try {
    for (const language of languages) {
      for (const viewport of viewports) {
        const context = await browser.newContext({
          viewport: { width: viewport.width, height: viewport.height },
          deviceScaleFactor: 1,
          serviceWorkers: 'block',
        });
        await context.addInitScript((lang) => localStorage.setItem('lang', lang), language);
        const page = await context.newPage();
        page.on('pageerror', (error) =>
          console.error(`[${language}/${viewport.name}] page error:`, error.message),
        );
        const shot = (name: string) =>
          page.screenshot({ path: join(outDir, `${language}-${viewport.name}-${name}.png`) });

        await page.goto(`${baseUrl}/`, { waitUntil: 'networkidle' });
        await shot('home');
        await page.getByTestId('open-register').click();
        await page.getByTestId('register-modal').waitFor();
        await page.waitForTimeout(300);
        await shot('register');
        await page.getByTestId('register-submit').click();
        await page.waitForTimeout(300);
        await shot('register-errors');
        await page.goto(`${baseUrl}/login`, { waitUntil: 'networkidle' });
        await shot('login');
        await page.goto(`${baseUrl}/withdrawalRecord`, { waitUntil: 'networkidle' });
        await shot('later-guest');

        const token = await registerPlayer(page, language);
        await page.evaluate((value) => sessionStorage.setItem('token', value), token);
        await page.goto(`${baseUrl}/profile`, { waitUntil: 'networkidle' });
        await shot('profile');
        await page.goto(`${baseUrl}/withdrawalRecord`, { waitUntil: 'networkidle' });
        await shot('later-player');
        await page.goto(`${baseUrl}/`, { waitUntil: 'networkidle' });
        await page.getByTestId('language-switcher').click();
        await page.waitForTimeout(200);
        await shot('home-player-languages');
        await context.close();
      }
    }
  } finally {
    await browser.close();
  }
  console.log(`screenshots in ${outDir}`);
}

await main();
