/**
 * Fails (exit 1) when any translation key of any language is missing in another, or when a text is
 * empty or its {{placeholders}} differ from the English one. Checks the web app's catalogues
 * (apps/web/src/locales/<lang>.json) and the contract's server/form messages (MESSAGES).
 *   npm run check:i18n
 */
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { LANGUAGES } from '../packages/contract/src/languages.ts';
import { MESSAGES } from '../packages/contract/src/messages/index.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

export type TNested = { [key: string]: unknown };

export interface TProblem {
  catalogue: string;
  language: string;
  key: string;
  problem: 'missing' | 'empty' | 'not-text' | 'placeholders';
  detail?: string;
}

/** `{ a: { b: 'x' } }` → `{ 'a.b': 'x' }`; flat keys with dots stay as they are. */
export function flatten(value: TNested, prefix = ''): Map<string, unknown> {
  const out = new Map<string, unknown>();
  for (const [key, child] of Object.entries(value)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (child !== null && typeof child === 'object' && !Array.isArray(child)) {
      for (const [nested, text] of flatten(child as TNested, path)) out.set(nested, text);
    } else {
      out.set(path, child);
    }
  }
  return out;
}

/** The set of interpolation names in a text: `{{name}}` (i18next) and `{name}` / `{name:money}` (contract). */
export function placeholders(text: string): string[] {
  const names = new Set<string>();
  for (const match of text.matchAll(/\{\{\s*(\w+)\s*\}\}|\{(\w+(?::(?:money|datetime|term))?)\}/g))
    names.add(match[1] ?? match[2] ?? '');
  return [...names].sort();
}

/**
 * Compares every language of one catalogue with every other: a key present anywhere must be
 * present everywhere, as non-empty text with the same placeholders as the reference language.
 */
export function findProblems(
  catalogue: string,
  languages: Readonly<Record<string, TNested>>,
  reference = 'en',
): TProblem[] {
  const flat = new Map(Object.entries(languages).map(([language, texts]) => [language, flatten(texts)]));
  const allKeys = new Set<string>();
  for (const texts of flat.values()) for (const key of texts.keys()) allKeys.add(key);
  const problems: TProblem[] = [];
  for (const [language, texts] of flat) {
    for (const key of [...allKeys].sort()) {
      if (!texts.has(key)) {
        problems.push({ catalogue, language, key, problem: 'missing' });
        continue;
      }
      const text = texts.get(key);
      if (typeof text !== 'string') {
        problems.push({ catalogue, language, key, problem: 'not-text' });
        continue;
      }
      if (text.trim() === '') {
        problems.push({ catalogue, language, key, problem: 'empty' });
        continue;
      }
      const expected = flat.get(reference)?.get(key);
      if (language !== reference && typeof expected === 'string') {
        const want = placeholders(expected).join(',');
        const got = placeholders(text).join(',');
        if (want !== got) {
          problems.push({
            catalogue,
            language,
            key,
            problem: 'placeholders',
            detail: `{${got}} ≠ ${reference} {${want}}`,
          });
        }
      }
    }
  }
  return problems;
}

export async function loadWebCatalogues(): Promise<Record<string, TNested>> {
  const entries = await Promise.all(
    LANGUAGES.map(async (language) => {
      const file = join(root, 'apps/web/src/locales', `${language}.json`);
      try {
        return [language, JSON.parse(await readFile(file, 'utf8')) as TNested] as const;
      } catch (error) {
        throw new Error(`Cannot read ${file}: ${(error as Error).message}`);
      }
    }),
  );
  return Object.fromEntries(entries);
}

export async function checkAll(): Promise<TProblem[]> {
  return [
    ...findProblems('web (apps/web/src/locales)', await loadWebCatalogues()),
    ...findProblems('contract (MESSAGES)', MESSAGES as unknown as Record<string, TNested>),
  ];
}

async function main(): Promise<void> {
  const problems = await checkAll();
  if (problems.length === 0) {
    console.log(`i18n: every key exists in all ${LANGUAGES.length} languages (web and contract).`);
    return;
  }
  console.error(`i18n: ${problems.length} problem(s):`);
  for (const item of problems) {
    console.error(
      `  [${item.catalogue}] ${item.language}: ${item.key} — ${item.problem}${item.detail ? ` ${item.detail}` : ''}`,
    );
  }
  process.exitCode = 1;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await main();
}
