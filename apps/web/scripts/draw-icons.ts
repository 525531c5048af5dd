/**
 * Draws the app icons (favicon.svg and the PNGs the manifest lists) from one SVG, rendered by
 * Chromium so the PNGs are pixel-exact. Run after changing the artwork, then commit the files:
 *   node --import tsx apps/web/scripts/draw-icons.ts
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const publicDir = join(dirname(fileURLToPath(import.meta.url)), '..', 'public');

/** `safe` shrinks the artwork into the maskable safe zone (the inner 80 %). */
function artwork(options: { rounded: boolean; safe: boolean }): string {
  const scale = options.safe ? 0.78 : 1;
  const offset = (512 - 512 * scale) / 2;
  const background = options.rounded
    ? '<rect width="512" height="512" rx="112" fill="url(#bg)"/>'
    : '<rect width="512" height="512" fill="url(#bg)"/>';
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512" width="512" height="512">
  <defs>
    <radialGradient id="bg" cx="50%" cy="30%" r="80%">
      <stop offset="0" stop-color="#1d2747"/><stop offset="1" stop-color="#0a0e1a"/>
    </radialGradient>
    <linearGradient id="gold" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0" stop-color="#ffe08a"/><stop offset=".55" stop-color="#f7c948"/><stop offset="1" stop-color="#d98a12"/>
    </linearGradient>
    <linearGradient id="rim" x1="0" y1="0" x2="1" y2="1">
      <stop offset="0" stop-color="#fff1bf"/><stop offset="1" stop-color="#b86f08"/>
    </linearGradient>
  </defs>
  ${background}
  <g transform="translate(${offset} ${offset}) scale(${scale})">
    <circle cx="256" cy="262" r="178" fill="url(#rim)"/>
    <circle cx="256" cy="262" r="156" fill="url(#gold)"/>
    <circle cx="256" cy="262" r="138" fill="none" stroke="#b8730c" stroke-width="6" stroke-dasharray="10 14" opacity=".55"/>
    <path d="M316 196c-14-22-38-34-66-34-40 0-68 22-68 54 0 30 22 44 62 54l16 4c26 6 36 14 36 28 0 18-18 30-44 30-26 0-46-12-56-34l-34 18c16 34 50 54 90 54 48 0 84-26 84-68 0-32-20-50-64-60l-18-4c-24-6-32-12-32-24 0-14 14-24 34-24 18 0 32 8 42 22z"
      fill="#3a2400" opacity=".9"/>
    <path d="M404 92l10 26 26 10-26 10-10 26-10-26-26-10 26-10z" fill="#fff6d6"/>
    <path d="M120 372l6 15 15 6-15 6-6 15-6-15-15-6 15-6z" fill="#1fd68b"/>
  </g>
</svg>`;
}

async function main(): Promise<void> {
  await mkdir(join(publicDir, 'icons'), { recursive: true });
  await writeFile(join(publicDir, 'favicon.svg'), artwork({ rounded: true, safe: false }));
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu'],
  });
  try {
    const page = await browser.newPage({ deviceScaleFactor: 1 });
    const targets = [
      { file: 'icon-192.png', size: 192, rounded: true, safe: false, transparent: true },
      { file: 'icon-512.png', size: 512, rounded: true, safe: false, transparent: true },
      { file: 'maskable-512.png', size: 512, rounded: false, safe: true, transparent: false },
      { file: 'apple-touch-icon.png', size: 180, rounded: false, safe: false, transparent: false },
    ];
    for (const target of targets) {
      await page.setViewportSize({ width: target.size, height: target.size });
      const svg = artwork(target).replace(
        'width="512" height="512"',
        `width="${target.size}" height="${target.size}"`,
      );
      await page.setContent(`<html><body style="margin:0;background:transparent">${svg}</body></html>`);
      await page.screenshot({
        path: join(publicDir, 'icons', target.file),
        omitBackground: target.transparent,
        clip: { x: 0, y: 0, width: target.size, height: target.size },
      });
    }
  } finally {
    await browser.close();
  }
}

await main();
