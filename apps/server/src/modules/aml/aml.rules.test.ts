import { AML_RULES } from '@sorte/contract';
import { describe, expect, it } from 'vitest';
import { compileRule, RULE_KINDS } from './aml.rules.ts';

describe('AML rule kinds', () => {
  it('are the contract list (the back office labels each one)', () => {
    expect(Object.keys(RULE_KINDS).sort()).toEqual([...AML_RULES].sort());
  });

  it('compile a row whose params parse, amounts as bigints', () => {
    const rule = compileRule({
      jurisdiction: 'br',
      rule: 'large_amount',
      params: { threshold_minor: 1000000, kinds: ['deposit'] },
      legalBasis: 'test',
    });
    expect(rule.params).toEqual({ threshold_minor: 1000000n, kinds: ['deposit'] });
  });

  it('refuse a row naming no rule kind, or whose params do not parse, instead of guessing', () => {
    expect(() => compileRule({ jurisdiction: 'br', rule: 'hunch', params: {}, legalBasis: 'x' })).toThrow(
      /no such rule/,
    );
    expect(() =>
      compileRule({
        jurisdiction: 'br',
        rule: 'structuring',
        params: { threshold_minor: 10 },
        legalBasis: 'x',
      }),
    ).toThrow(/params do not parse/);
    expect(() =>
      compileRule({
        jurisdiction: 'intl',
        rule: 'large_amount',
        params: { threshold_minor: -1, kinds: ['deposit'] },
        legalBasis: 'x',
      }),
    ).toThrow(/params do not parse/);
  });
});
