/**
 * `npm run bench:bundle`: what a phone downloads to show the home route, gzipped.
 *
 * Reads the built apps/web/dist/index.html (or the dist folder given as the first argument), takes
 * the module scripts, modulepreload links and stylesheets it names and follows the static imports
 * of those scripts (see home-route-assets.ts): the shell's first render. Then the home page's own
 * lazy chunks and the default language's catalogue, which the page needs before it shows its
 * content; the second total is what a phone downloads to see the home page filled in.
 * Prints one line per file and the totals. It prints
 * figures and never asserts: budgets are for people to read next to a change, not a gate that
 * fails on a noisy number.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { distFile, homeRouteAssets, lazyChunkAssets } from './home-route-assets.ts';

const dist = process.argv[2] ?? join(import.meta.dirname, '..', '..', 'apps', 'web', 'dist');

if (!existsSync(join(dist, 'index.html'))) {
  console.error(`${join(dist, 'index.html')} is missing: run \`npm run build --workspace @sorte/web\` first`);
  process.exit(1);
}

/**
 * The home page's own lazy chunks and the catalogue of the default language (en): the entry
 * renders the shell, then these load before the page shows its content.
 */
const HOME_LAZY_CHUNKS = ['home-route', 'en'];

const { scripts, styles, missing } = homeRouteAssets(dist);
for (const path of missing) console.warn(`skipped ${path}: named by the page but not in ${dist}`);
const lazy = lazyChunkAssets(dist, HOME_LAZY_CHUNKS, scripts);
for (const name of lazy.unmatched) console.warn(`no chunk named ${name} in ${dist}`);

interface TRow {
  kind: 'js' | 'css';
  path: string;
  raw: number;
  gzip: number;
}

const measure = (kind: TRow['kind'], path: string): TRow => {
  const content = readFileSync(distFile(dist, path));
  return { kind, path, raw: content.length, gzip: gzipSync(content, { level: 9 }).length };
};

const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;

function print(title: string, rows: readonly TRow[]): void {
  console.log(title);
  console.log(`${'kind'.padEnd(5)}${'raw'.padStart(11)}${'gzip'.padStart(11)}  file`);
  for (const row of rows) {
    console.log(
      `${row.kind.padEnd(5)}${kib(row.raw).padStart(11)}${kib(row.gzip).padStart(11)}  ${row.path}`,
    );
  }
}

function totals(label: string, rows: readonly TRow[]): void {
  for (const kind of ['js', 'css'] as const) {
    const ofKind = rows.filter((row) => row.kind === kind);
    const raw = ofKind.reduce((sum, row) => sum + row.raw, 0);
    const gzip = ofKind.reduce((sum, row) => sum + row.gzip, 0);
    console.log(
      `${label} ${kind}: ${ofKind.length} files, ${raw} bytes raw, ${gzip} bytes gzipped (${kib(gzip)})`,
    );
  }
}

const entryRows = [
  ...scripts.map((path) => measure('js', path)),
  ...styles.map((path) => measure('css', path)),
];
const lazyRows = [
  ...lazy.scripts.map((path) => measure('js', path)),
  ...lazy.styles.map((path) => measure('css', path)),
];
print('home route (/): files loaded before first render', entryRows);
print(`then the home page's lazy chunks (${HOME_LAZY_CHUNKS.join(', ')}):`, lazyRows);
totals('total', entryRows);
totals('home page with its content', [...entryRows, ...lazyRows]);
