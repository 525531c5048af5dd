import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { LANGUAGES } from '@sorte/contract';
import { describe, expect, it } from 'vitest';

/**
 * Each language keeps a glossary of the casino words its players know from the leading sites in
 * that language (glossary/<lang>.json: the term, the catalogue keys that must use it, and wrong
 * variants that must appear nowhere). This test holds the catalogues to it, so a translation pass
 * cannot bring back "Provavelmente justo" or call a PIX key a bank card.
 */

type TCatalogue = { [key: string]: string | TCatalogue };
interface TGlossary {
  language: string;
  reviewed_against: string[];
  terms: Record<string, { term: string; keys: string[]; avoid?: string[]; note?: string }>;
}

const read = <T>(path: string): T =>
  JSON.parse(readFileSync(fileURLToPath(new URL(path, import.meta.url)), 'utf8')) as T;

function valueAt(catalogue: TCatalogue, key: string): string | undefined {
  let node: string | TCatalogue | undefined = catalogue;
  for (const part of key.split('.')) {
    if (typeof node !== 'object' || node === null) return undefined;
    node = node[part];
  }
  return typeof node === 'string' ? node : undefined;
}

function allValues(catalogue: TCatalogue): string[] {
  return Object.values(catalogue).flatMap((value) =>
    typeof value === 'string' ? [value] : allValues(value),
  );
}

/** The terms every language's glossary must settle. */
const REQUIRED_TERMS = [
  'provably_fair',
  'rtp',
  'wagering',
  'cash_out',
  'withdrawal_password',
  'pix_key',
  'fun_money',
];

describe.each(LANGUAGES)('the %s glossary', (language) => {
  const glossary = read<TGlossary>(`./glossary/${language}.json`);
  const catalogue = read<TCatalogue>(`./${language}.json`);

  it('settles the key terms and names the sites it was checked against', () => {
    expect(glossary.language).toBe(language);
    expect(glossary.reviewed_against.length).toBeGreaterThan(0);
    for (const term of REQUIRED_TERMS) expect(glossary.terms[term]?.term, term).toBeTruthy();
  });

  it('is the word the catalogue uses wherever the term appears', () => {
    for (const [name, entry] of Object.entries(glossary.terms)) {
      for (const key of entry.keys) {
        const text = valueAt(catalogue, key);
        expect(text, `${language}: ${key} exists`).toBeTypeOf('string');
        expect(text?.toLocaleLowerCase(language), `${language}: ${key} uses the ${name} term`).toContain(
          entry.term.toLocaleLowerCase(language),
        );
      }
    }
  });

  it('never uses the wrong variants anywhere in the catalogue', () => {
    const texts = allValues(catalogue).map((text) => text.toLocaleLowerCase(language));
    for (const entry of Object.values(glossary.terms)) {
      for (const wrong of entry.avoid ?? []) {
        const lower = wrong.toLocaleLowerCase(language);
        expect(
          texts.filter((text) => text.includes(lower)),
          `${language}: "${wrong}"`,
        ).toEqual([]);
      }
    }
  });
});
