/**
 * `npm run bench:bundle`: what a phone downloads to show the home route, gzipped.
 *
 * Reads the built apps/web/dist/index.html (or the dist folder given as the first argument), takes
 * the module scripts, modulepreload links and stylesheets it names and follows the static imports
 * of those scripts (see home-route-assets.ts). Prints one line per file and the totals. It prints
 * figures and never asserts: budgets are for people to read next to a change, not a gate that
 * fails on a noisy number.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { distFile, homeRouteAssets } from './home-route-assets.ts';

const dist = process.argv[2] ?? join(import.meta.dirname, '..', '..', 'apps', 'web', 'dist');

if (!existsSync(join(dist, 'index.html'))) {
  console.error(`${join(dist, 'index.html')} is missing: run \`npm run build --workspace @sorte/web\` first`);
  process.exit(1);
}

const { scripts, styles, missing } = homeRouteAssets(dist);
for (const path of missing) console.warn(`skipped ${path}: named by the page but not in ${dist}`);

const rows = [
  ...scripts.map((path) => ({ kind: 'js', path })),
  ...styles.map((path) => ({ kind: 'css', path })),
].map((row) => {
  const content = readFileSync(distFile(dist, row.path));
  return { ...row, raw: content.length, gzip: gzipSync(content, { level: 9 }).length };
});

const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;
console.log('home route (/): files loaded before first render');
console.log(`${'kind'.padEnd(5)}${'raw'.padStart(11)}${'gzip'.padStart(11)}  file`);
for (const row of rows) {
  console.log(`${row.kind.padEnd(5)}${kib(row.raw).padStart(11)}${kib(row.gzip).padStart(11)}  ${row.path}`);
}
for (const kind of ['js', 'css']) {
  const ofKind = rows.filter((row) => row.kind === kind);
  const raw = ofKind.reduce((sum, row) => sum + row.raw, 0);
  const gzip = ofKind.reduce((sum, row) => sum + row.gzip, 0);
  console.log(
    `total ${kind}: ${ofKind.length} files, ${raw} bytes raw, ${gzip} bytes gzipped (${kib(gzip)})`,
  );
}
