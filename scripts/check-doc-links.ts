// `node --import tsx scripts/check-doc-links.ts`: every relative link of the README and of docs/ (and of the
// module READMEs they point into) names a file that exists, and every `#anchor` names a heading of
// that file as GitHub spells it, so moving prose between files cannot leave a dead link behind.
// External links (http:, https:, mailto:) are not fetched, nor files outside the repository (the
// shared spec beside a checkout). Exits non-zero and lists each dead link.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const root = resolve(import.meta.dirname, '..');

/** The Markdown files checked: the README, everything under docs/, every README under apps/, packages/, bench/. */
function markdownFiles(): string[] {
  const found = [join(root, 'README.md')];
  const walk = (dir: string, onlyReadmes: boolean) => {
    for (const name of readdirSync(dir)) {
      if (name === 'node_modules' || name === 'dist' || name.startsWith('.')) continue;
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path, onlyReadmes);
      else if (name.endsWith('.md') && (!onlyReadmes || name === 'README.md')) found.push(path);
    }
  };
  walk(join(root, 'docs'), false);
  for (const dir of ['apps', 'packages', 'bench']) walk(join(root, dir), true);
  return found;
}

/** GitHub's heading ids: lower case, punctuation and symbols dropped, spaces to dashes, repeats numbered. */
export function headingIds(markdown: string): Set<string> {
  const ids = new Set<string>();
  const seen = new Map<string, number>();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    const heading = !fenced && /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading) {
      const text = (heading[1] ?? '').replace(/<[^>]+>/g, '').replace(/[`*_]|\[|\]\([^)]*\)/g, '');
      const base = text
        .toLowerCase()
        .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
        .replace(/ /g, '-');
      const count = seen.get(base) ?? 0;
      seen.set(base, count + 1);
      ids.add(count === 0 ? base : `${base}-${count}`);
    }
    for (const match of line.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) ids.add(match[1] as string);
  }
  return ids;
}

/** Inline links `[text](target)` outside code fences and code spans. */
export function linksOf(markdown: string): { target: string; line: number }[] {
  const links: { target: string; line: number }[] = [];
  let fenced = false;
  markdown.split('\n').forEach((line, index) => {
    if (line.startsWith('```')) fenced = !fenced;
    if (fenced) return;
    const prose = line.replace(/`[^`]*`/g, '');
    for (const match of prose.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
      links.push({ target: match[1] as string, line: index + 1 });
    }
  });
  return links;
}

/** Every dead relative link of the checked files, as `file:line: target (why)`. */
export function deadLinks(): { dead: string[]; checked: number } {
  const dead: string[] = [];
  let checked = 0;
  for (const file of markdownFiles()) {
    const text = readFileSync(file, 'utf8');
    for (const { target, line } of linksOf(text)) {
      if (/^[a-z]+:/i.test(target)) continue;
      const [pathPart, anchor] = target.split('#');
      const path = !pathPart ? file : resolve(dirname(file), decodeURIComponent(pathPart));
      if (relative(root, path).startsWith('..')) continue;
      checked += 1;
      const where = `${relative(root, file)}:${line}`;
      if (!existsSync(path)) dead.push(`${where}: ${target} (no such file)`);
      else if (anchor && path.endsWith('.md') && !headingIds(readFileSync(path, 'utf8')).has(anchor)) {
        dead.push(`${where}: ${target} (no heading #${anchor})`);
      }
    }
  }
  return { dead, checked };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { dead, checked } = deadLinks();
  if (dead.length > 0) {
    console.error(`${dead.length} dead link(s) of ${checked}:\n${dead.join('\n')}`);
    process.exit(1);
  }
  console.log(`${checked} relative links, none dead`);
}
