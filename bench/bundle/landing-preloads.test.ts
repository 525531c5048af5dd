import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Manifest } from 'vite';
import { describe, expect, it } from 'vitest';
import { LANDING_PAGES, type TLandingPage, type TLandingPreloads } from '../../apps/web/landing-pages.ts';
import { distFile, homeRouteAssets, staticImports } from './home-route-assets.ts';

/**
 * The web build as `npm test` leaves it (it builds before the tests): what the server announces in
 * each landing page's head must be files that exist and that the page itself loads. Vite's own
 * manifest says what a module's chunk imports and which stylesheets Vite loads with it.
 */
const DIST = join(import.meta.dirname, '..', '..', 'apps', 'web', 'dist');

function readJson<T>(path: string): T {
  if (!existsSync(path)) throw new Error(`${path} is missing: build the web app first (npm run build)`);
  return JSON.parse(readFileSync(path, 'utf8')) as T;
}

/** The manifest keys `start` imports statically, transitively, itself included. */
function closure(manifest: Manifest, start: string): string[] {
  const keys: string[] = [];
  const visit = (key: string) => {
    if (keys.includes(key) || !manifest[key]) return;
    keys.push(key);
    for (const imported of manifest[key].imports ?? []) visit(imported);
  };
  visit(start);
  return keys;
}

/** The page's own scripts and stylesheets by the manifest: what it loads beyond the entry's. */
function expectedPreloads(manifest: Manifest, page: TLandingPage): { scripts: string[]; styles: string[] } {
  const entry = closure(manifest, 'index.html');
  const entryFiles = new Set(entry.map((key) => manifest[key]!.file));
  const entryStyles = new Set(entry.flatMap((key) => manifest[key]!.css ?? []));
  const own = closure(manifest, LANDING_PAGES[page]).filter((key) => !entryFiles.has(manifest[key]!.file));
  const styles = new Set(
    own.flatMap((key) => manifest[key]!.css ?? []).filter((file) => !entryStyles.has(file)),
  );
  return {
    scripts: own.map((key) => `/${manifest[key]!.file}`).sort(),
    styles: [...styles].map((file) => `/${file}`).sort(),
  };
}

describe('the landing preloads of the web build', () => {
  const preloads = readJson<TLandingPreloads>(join(DIST, 'landing-preloads.json'));
  const manifest = readJson<Manifest>(join(DIST, '.vite', 'manifest.json'));
  const pages = Object.keys(LANDING_PAGES) as TLandingPage[];

  it('lists every landing page', () => {
    expect(Object.keys(preloads).sort()).toEqual([...pages].sort());
  });

  it.each(pages)('every script and stylesheet announced for %s exists in the build', (page) => {
    const announced = [...preloads[page].scripts, ...preloads[page].styles];
    expect(announced.filter((path) => !existsSync(distFile(DIST, path)))).toEqual([]);
    expect(announced.length).toBeGreaterThan(0);
  });

  it.each(pages)('%s announces exactly the chunks and stylesheets that page loads', (page) => {
    expect({
      scripts: [...preloads[page].scripts].sort(),
      styles: [...preloads[page].styles].sort(),
    }).toEqual(expectedPreloads(manifest, page));
  });

  it.each(pages)('the scripts announced for %s are its chunk and what the built files import', (page) => {
    const chunk = `/${manifest[LANDING_PAGES[page]]!.file}`;
    const reached = new Set([chunk, ...homeRouteAssets(DIST).scripts]);
    for (let grew = true; grew; ) {
      grew = false;
      for (const path of [...reached]) {
        for (const specifier of staticImports(readFileSync(distFile(DIST, path), 'utf8'))) {
          const target = join('/assets', specifier);
          if (!reached.has(target) && existsSync(distFile(DIST, target))) {
            reached.add(target);
            grew = true;
          }
        }
      }
    }
    expect(preloads[page].scripts.filter((path) => !reached.has(path))).toEqual([]);
  });
});
