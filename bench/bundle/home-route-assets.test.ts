import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { entryAssets, homeRouteAssets, lazyChunkAssets, staticImports } from './home-route-assets.ts';

describe('entryAssets', () => {
  it('finds module scripts, modulepreloads and stylesheets, and ignores the rest', () => {
    const html = `<!doctype html><head>
      <script type="module" crossorigin src="/assets/index-a1.js"></script>
      <script src="/legacy.js"></script>
      <link rel="modulepreload" crossorigin href="/assets/vendor-b2.js">
      <link rel="stylesheet" crossorigin href="/assets/index-c3.css">
      <link rel="preload" as="style" crossorigin href="/assets/games-d4.css">
      <link rel="preload" as="font" crossorigin href="/assets/font-e5.woff2">
      <link rel="manifest" href="/manifest.webmanifest">
      <link rel="icon" href="/favicon.svg"></head>`;
    expect(entryAssets(html)).toEqual({
      scripts: ['/assets/index-a1.js', '/assets/vendor-b2.js'],
      styles: ['/assets/index-c3.css', '/assets/games-d4.css'],
    });
  });
});

describe('staticImports', () => {
  it('reads minified static imports and re-exports but not dynamic imports', () => {
    const code =
      'import{a as b}from"./vendor-b2.js";import"./side-d4.js";export{c}from"./re-e5.js";' +
      '/* empty css                  */import{t}from"./after-comment-g7.js";' +
      'const lazy=()=>import("./route-f6.js");const s="import x from \'./not-code.js\'";';
    expect(staticImports(code)).toEqual([
      './vendor-b2.js',
      './side-d4.js',
      './re-e5.js',
      './after-comment-g7.js',
    ]);
  });
});

describe('homeRouteAssets', () => {
  const dist = mkdtempSync(join(tmpdir(), 'sorte-bundle-'));
  afterAll(() => rmSync(dist, { recursive: true, force: true }));

  it('follows static imports transitively, skips lazy chunks and reports missing files', () => {
    mkdirSync(join(dist, 'assets'));
    writeFileSync(
      join(dist, 'index.html'),
      '<script type="module" src="/assets/entry.js"></script><link rel="stylesheet" href="/assets/app.css">' +
        '<link rel="modulepreload" href="/assets/gone.js">',
    );
    writeFileSync(
      join(dist, 'assets', 'entry.js'),
      'import{x}from"./shared.js";const r=()=>import("./lazy.js");',
    );
    writeFileSync(join(dist, 'assets', 'shared.js'), 'import"./deep.js";export const x=1;');
    writeFileSync(join(dist, 'assets', 'deep.js'), 'export{};');
    writeFileSync(join(dist, 'assets', 'lazy.js'), 'export{};');
    writeFileSync(join(dist, 'assets', 'app.css'), 'body{}');

    const assets = homeRouteAssets(dist);
    expect(assets.scripts.sort()).toEqual(['/assets/deep.js', '/assets/entry.js', '/assets/shared.js']);
    expect(assets.styles).toEqual(['/assets/app.css']);
    expect(assets.missing).toEqual(['/assets/gone.js']);
  });
});

describe('lazyChunkAssets', () => {
  const dist = mkdtempSync(join(tmpdir(), 'sorte-bundle-lazy-'));
  afterAll(() => rmSync(dist, { recursive: true, force: true }));

  it('adds the named lazy chunks, their static imports and stylesheets, minus what the entry holds', () => {
    mkdirSync(join(dist, 'assets'));
    const files: Record<string, string> = {
      'home-route-Ab12Cd34.js': 'import{x}from"./games-Zz-9Yy8X.js";import{r}from"./react-Qq11Ww22.js";',
      'games-Zz-9Yy8X.js': 'export const x=1;',
      'games-Kk22Ll33.css': '.g{}',
      'react-Qq11Ww22.js': 'export const r=1;',
      'en-Mm44Nn55.js': 'export default {};',
      // A longer name that merely starts like a requested one is not that chunk.
      'en-route-Oo66Pp77.js': 'export{};',
    };
    for (const [name, content] of Object.entries(files)) writeFileSync(join(dist, 'assets', name), content);

    const lazy = lazyChunkAssets(dist, ['home-route', 'en', 'missing'], ['/assets/react-Qq11Ww22.js']);
    expect(lazy.scripts.sort()).toEqual([
      '/assets/en-Mm44Nn55.js',
      '/assets/games-Zz-9Yy8X.js',
      '/assets/home-route-Ab12Cd34.js',
    ]);
    expect(lazy.styles).toEqual(['/assets/games-Kk22Ll33.css']);
    expect(lazy.unmatched).toEqual(['missing']);
  });
});
