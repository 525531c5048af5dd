import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, posix } from 'node:path';

/** A page names few files; this bounds the walk should the import graph ever be malformed. */
const MAX_FILES = 500;

function attribute(tag: string, name: string): string | undefined {
  return new RegExp(`\\s${name}\\s*=\\s*["']([^"']+)["']`, 'i').exec(tag)?.[1];
}

/** Site-absolute paths of the module scripts, modulepreloads and stylesheets an HTML page names. */
export function entryAssets(html: string): { scripts: string[]; styles: string[] } {
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
    // A stylesheet preloaded for a lazy chunk downloads with the page too.
    if (rel === 'stylesheet' || (rel === 'preload' && attribute(tag, 'as')?.toLowerCase() === 'style')) {
      styles.add(href);
    }
  }
  return { scripts: [...scripts], styles: [...styles] };
}

/**
 * Relative specifiers of static `import … from "x"`, `import "x"` and `export … from "x"` in a
 * built chunk. Dynamic `import("x")` is left out on purpose: those chunks load later, per route.
 */
export function staticImports(code: string): string[] {
  const found = new Set<string>();
  // A comment may sit between two statements (the build leaves `/* empty css */` where a chunk's
  // stylesheet import was).
  const pattern =
    /(?:^|[;\n}])\s*(?:\/\*[\s\S]*?\*\/\s*)*(?:import|export)\s*(?:[\w$*{}\s,]+?\s*from\s*)?["'](\.{1,2}\/[^"']+)["']/g;
  for (const match of code.matchAll(pattern)) found.add(match[1]!);
  return [...found];
}

/** The file under `dist` that serves a site path. */
export function distFile(dist: string, sitePath: string): string {
  return join(dist, sitePath.replace(/^\//, '').split('?')[0]!);
}

/** Follows static imports from `start` (site paths), skipping what `seen` already holds. */
function walkStatic(dist: string, start: readonly string[], seen: Set<string>, missing: string[]): void {
  const queue = start.map((src) => posix.normalize(src.startsWith('/') ? src : `/${src}`));
  while (queue.length > 0 && seen.size < MAX_FILES) {
    const sitePath = queue.shift()!;
    if (seen.has(sitePath) || missing.includes(sitePath)) continue;
    const file = distFile(dist, sitePath);
    if (!existsSync(file)) {
      missing.push(sitePath);
      continue;
    }
    seen.add(sitePath);
    for (const specifier of staticImports(readFileSync(file, 'utf8'))) {
      queue.push(posix.normalize(posix.join(posix.dirname(sitePath), specifier)));
    }
  }
}

/**
 * Every script and stylesheet a browser fetches for index.html before the app renders: what the
 * page names, plus the static imports of those scripts, transitively (a module runs only once all
 * its static imports have loaded).
 */
export function homeRouteAssets(dist: string): { scripts: string[]; styles: string[]; missing: string[] } {
  const { scripts, styles } = entryAssets(readFileSync(join(dist, 'index.html'), 'utf8'));
  const seen = new Set<string>();
  const missing: string[] = [];
  walkStatic(dist, scripts, seen, missing);
  return { scripts: [...seen], styles: styles.filter((path) => existsSync(distFile(dist, path))), missing };
}

/** A built chunk's name is `<module name>-<8 character hash>.<ext>`. */
function chunkPattern(name: string, ext: string): RegExp {
  return new RegExp(`^${name.replace(/[^\w-]/g, '')}-[\\w-]{8}\\.${ext}$`);
}

/**
 * The lazy chunks the home page loads right after the entry (its route chunk, the game rows, the
 * default language's catalogue) with their static imports and their stylesheets, minus what
 * `already` holds. Named by module name, as the build names chunks.
 */
export function lazyChunkAssets(
  dist: string,
  names: readonly string[],
  already: readonly string[],
): { scripts: string[]; styles: string[]; unmatched: string[] } {
  const assets = existsSync(join(dist, 'assets')) ? readdirSync(join(dist, 'assets')) : [];
  const start: string[] = [];
  const styles: string[] = [];
  const unmatched: string[] = [];
  for (const name of names) {
    const scripts = assets.filter((file) => chunkPattern(name, 'js').test(file));
    if (scripts.length === 0) unmatched.push(name);
    start.push(...scripts.map((file) => `/assets/${file}`));
    styles.push(
      ...assets.filter((file) => chunkPattern(name, 'css').test(file)).map((file) => `/assets/${file}`),
    );
  }
  const seen = new Set<string>(already);
  walkStatic(dist, start, seen, []);
  const scripts = [...seen].filter((path) => !already.includes(path));
  // A stylesheet split from a shared chunk is named after that chunk (e.g. games-*.css beside games-*.js).
  for (const path of scripts) {
    const name = posix.basename(path).replace(/-[\w-]{8}\.js$/, '');
    for (const file of assets.filter((candidate) => chunkPattern(name, 'css').test(candidate))) {
      if (!styles.includes(`/assets/${file}`)) styles.push(`/assets/${file}`);
    }
  }
  return { scripts, styles, unmatched };
}
