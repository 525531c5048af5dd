import { LANGUAGES, type TLanguage } from '@sorte/contract';
import { describe, expect, it } from 'vitest';
import {
  decimalSeparator,
  formatAmount,
  formatChance,
  formatDecimal,
  formatFactor,
  formatMoney,
  formatMultiplier,
  formatNumber,
  formatPercent,
  formatSignedMoney,
  parseAmountInput,
} from './format.ts';

// Intl writes a (narrow) no-break space between symbol and digits in several languages; the tests
// read it as a plain space.
const plain = (text: string) => text.replace(/[\u00a0\u202f]/g, ' ');

/** How each language writes R$ 1.000.000,00 and R$ 50,00, as the leading sites in it do. */
const MONEY: Record<TLanguage, { million: string; fifty: string; decimal: string }> = {
  pt: { million: 'R$ 1.000.000,00', fifty: 'R$ 50,00', decimal: ',' },
  en: { million: 'R$1,000,000.00', fifty: 'R$50.00', decimal: '.' },
  cn: { million: 'R$1,000,000.00', fifty: 'R$50.00', decimal: '.' },
  ch: { million: 'R$1,000,000.00', fifty: 'R$50.00', decimal: '.' },
  vi: { million: '1.000.000,00 R$', fifty: '50,00 R$', decimal: ',' },
  id: { million: 'R$1.000.000,00', fifty: 'R$50,00', decimal: ',' },
  th: { million: 'R$1,000,000.00', fifty: 'R$50.00', decimal: '.' },
  msa: { million: 'R$1,000,000.00', fifty: 'R$50.00', decimal: '.' },
};

describe('the money formatter', () => {
  it.each(LANGUAGES)('writes reais the way %s readers do', (language) => {
    const expected = MONEY[language];
    expect(plain(formatMoney('1000000.00', language))).toBe(expected.million);
    expect(plain(formatMoney('50.00', language))).toBe(expected.fifty);
    expect(decimalSeparator(language)).toBe(expected.decimal);
  });

  it('writes R$ 1.234,56 in Portuguese and never goes through a float', () => {
    expect(plain(formatMoney('1234.56', 'pt'))).toBe('R$ 1.234,56');
    // 2^53 + 1 centavos would lose its last digit as a float.
    expect(plain(formatMoney('90071992547409.93', 'pt'))).toBe('R$ 0,00');
    expect(plain(formatMoney('9999999999999.99', 'pt'))).toBe('R$ 9.999.999.999.999,99');
  });

  it('shows R$ 0,00 for anything that is not a money text', () => {
    expect(plain(formatMoney(undefined, 'pt'))).toBe('R$ 0,00');
    expect(plain(formatMoney('abc', 'en'))).toBe('R$0.00');
    expect(plain(formatMoney('1.5', 'en'))).toBe('R$0.00');
  });

  it('writes the sign of a win or a loss', () => {
    expect(plain(formatSignedMoney('2.00', 'pt'))).toBe('+R$ 2,00');
    expect(plain(formatSignedMoney('-1.00', 'pt'))).toBe('-R$ 1,00');
    expect(plain(formatSignedMoney('0.00', 'en'))).toBe('R$0.00');
  });

  it('writes amounts without the currency, multipliers, percentages and counts per language', () => {
    expect(formatAmount('1234.50', 'pt')).toBe('1.234,50');
    expect(formatAmount('1234.50', 'en')).toBe('1,234.50');
    expect(formatMultiplier(2, 'pt')).toBe('×2,00');
    expect(formatMultiplier('1000000', 'en')).toBe('×1,000,000.00');
    expect(plain(formatPercent('97.00', 'pt'))).toBe('97%');
    expect(plain(formatPercent(1.5, 'pt'))).toBe('1,5%');
    expect(plain(formatPercent('99.01', 'en'))).toBe('99.01%');
    expect(formatNumber(1000, 'pt')).toBe('1.000');
    expect(formatNumber(1000, 'en')).toBe('1,000');
  });
});

describe('the game numbers', () => {
  it('writes multipliers as the reader does, with two places and four when they matter', () => {
    expect(formatMultiplier('2.0000', 'pt')).toBe('×2,00');
    expect(formatMultiplier('1.2857', 'pt')).toBe('×1,2857');
    expect(formatMultiplier('1.2857', 'en')).toBe('×1.2857');
    expect(formatFactor('8.6400', 'pt')).toBe('8,64');
    expect(formatFactor('1000000.00', 'pt')).toBe('1.000.000,00');
  });

  it('writes chances with two places and targets in the reader digits', () => {
    expect(plain(formatChance('49.50', 'pt'))).toBe('49,50%');
    expect(plain(formatChance(98, 'en'))).toBe('98.00%');
    expect(formatDecimal('49.50', 2, 'pt')).toBe('49,50');
    expect(formatDecimal('2', 2, 'pt')).toBe('2,00');
    expect(formatDecimal('1.01', 2, 'vi')).toBe('1,01');
  });

  it('gives back what is not a number unchanged', () => {
    expect(formatMultiplier('—', 'pt')).toBe('—');
    expect(formatDecimal('abc', 2, 'pt')).toBe('abc');
  });
});

describe('amount fields', () => {
  it.each([
    ['pt', '1.234,56', '1234.56'],
    ['pt', '50,5', '50.5'],
    ['pt', 'R$ 50,00', '50.00'],
    ['pt', '50.5', '50.5'],
    ['pt', '1.000', '1000'],
    ['pt', '20', '20'],
    ['vi', '1.234,56', '1234.56'],
    ['id', '100,00', '100.00'],
    ['en', '1,234.56', '1234.56'],
    ['en', '50.00', '50.00'],
    ['en', '50,5', '50.5'],
    ['th', '1,000', '1000'],
  ] as const)('in %s read %s as %s', (language, typed, canonical) => {
    expect(parseAmountInput(typed, language)).toBe(canonical);
  });

  it.each([
    ['pt', '1,2,3'],
    ['pt', '12.34.5'],
    ['pt', '-5'],
    ['en', 'abc'],
    ['pt', '1,234'],
    ['en', '1.2.3'],
  ] as const)('in %s leaves %s for the form to refuse', (language, typed) => {
    const parsed = parseAmountInput(typed, language);
    expect(/^\d+(\.\d{1,2})?$/.test(parsed)).toBe(false);
  });
});
