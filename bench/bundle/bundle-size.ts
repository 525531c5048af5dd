/**
 * `npm run bench:bundle`: what a phone downloads to show the home route, gzipped.
 *
 * Reads the built apps/web/dist/index.html, takes the module scripts, the modulepreload links and
 * the stylesheets it names, then follows the static imports of those scripts (a browser fetches
 * those before it runs the entry; dynamic `import()` chunks load later, per route, and are not
 * counted). Prints one line per file and the totals. It prints figures and never asserts: budgets
 * are for people to read next to a change, not a gate that fails on a noisy number.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import { gzipSync } from 'node:zlib';

/** The built app to measure: apps/web/dist, or another dist folder given as the first argument. */
const DIST = process.argv[2] ?? join(import.meta.dirname, '..', '..', 'apps', 'web', 'dist');
/** A page names few files; this bounds the walk should the import graph ever be malformed. */
const MAX_FILES = 500;

function attribute(tag: string, name: string): string | undefined {
  return new RegExp(`\\s${name}\\s*=\\s*["']([^"']+)["']`, 'i').exec(tag)?.[1];
}

/** Site-absolute paths of the scripts and stylesheets index.html loads up front. */
function entryAssets(html: string): { scripts: string[]; styles: string[] } {
  const scripts = new Set<string>();
  const styles = new Set<string>();
  for (const [tag] of html.matchAll(/<script\b[^>]*>/gi)) {
    const src = attribute(tag, 'src');
    if (src && attribute(tag, 'type') === 'module') scripts.add(src);
  }
  for (const [tag] of html.matchAll(/<link\b[^>]*>/gi)) {
    const rel = attribute(tag, 'rel')?.toLowerCase();
    const href = attribute(tag, 'href');
    if (!href) continue;
    if (rel === 'modulepreload') scripts.add(href);
    if (rel === 'stylesheet') styles.add(href);
  }
  return { scripts: [...scripts], styles: [...styles] };
}

/** Relative specifiers of static `import … from "x"`, `import "x"` and `export … from "x"`. */
function staticImports(code: string): string[] {
  const found = new Set<string>();
  const pattern = /(?:^|[;\n}])\s*(?:import|export)\s*(?:[\w$*{}\s,]+?\s*from\s*)?["'](\.{1,2}\/[^"']+)["']/g;
  for (const match of code.matchAll(pattern)) found.add(match[1]!);
  return [...found];
}

function localFile(sitePath: string): string {
  return join(DIST, sitePath.replace(/^\//, '').split('?')[0]!);
}

function gzipBytes(file: string): { raw: number; gzip: number } {
  const content = readFileSync(file);
  return { raw: content.length, gzip: gzipSync(content, { level: 9 }).length };
}

function main(): void {
  const indexHtml = join(DIST, 'index.html');
  if (!existsSync(indexHtml)) {
    console.error(`${indexHtml} is missing: run \`npm run build --workspace @sorte/web\` first`);
    process.exit(1);
  }
  const { scripts, styles } = entryAssets(readFileSync(indexHtml, 'utf8'));

  // Breadth-first over static imports, starting from what index.html names.
  const seen = new Set<string>();
  const queue = scripts.map((src) => posix.normalize(src.startsWith('/') ? src : `/${src}`));
  while (queue.length > 0 && seen.size < MAX_FILES) {
    const sitePath = queue.shift()!;
    if (seen.has(sitePath)) continue;
    const file = localFile(sitePath);
    if (!existsSync(file)) {
      console.warn(`skipped ${sitePath}: not in dist`);
      continue;
    }
    seen.add(sitePath);
    for (const specifier of staticImports(readFileSync(file, 'utf8'))) {
      queue.push(posix.normalize(posix.join(posix.dirname(sitePath), specifier)));
    }
  }

  const rows: { kind: string; path: string; raw: number; gzip: number }[] = [];
  for (const path of seen) rows.push({ kind: 'js', path, ...gzipBytes(localFile(path)) });
  for (const path of styles) {
    const file = localFile(path);
    if (existsSync(file)) rows.push({ kind: 'css', path, ...gzipBytes(file) });
  }

  const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`.padStart(10);
  console.log('home route (/) — files loaded before first render');
  console.log(`${'kind'.padEnd(5)}${'raw'.padStart(10)}${'gzip'.padStart(10)}  file`);
  for (const row of rows) console.log(`${row.kind.padEnd(5)}${kb(row.raw)}${kb(row.gzip)}  ${row.path}`);
  for (const kind of ['js', 'css']) {
    const of = rows.filter((row) => row.kind === kind);
    const raw = of.reduce((sum, row) => sum + row.raw, 0);
    const gzip = of.reduce((sum, row) => sum + row.gzip, 0);
    console.log(
      `total ${kind}: ${of.length} files, ${raw} bytes raw, ${gzip} bytes gzipped (${kb(gzip).trim()})`,
    );
  }
}

main();
