import { describe, expect, it } from 'vitest';
import { checkAll, findProblems, flatten, placeholders } from './check-i18n.ts';

describe('check-i18n', () => {
  it('flattens nested catalogues into dotted keys and keeps flat dotted keys', () => {
    const flat = flatten({ auth: { log_in: 'Log in' }, 'validation.required.username': 'x' });
    expect([...flat.keys()]).toEqual(['auth.log_in', 'validation.required.username']);
  });

  it('reads both placeholder styles', () => {
    expect(placeholders('Hi {{ name }}, {count} left')).toEqual(['count', 'name']);
  });

  it('lists a key that one language lacks, in the language that lacks it', () => {
    const problems = findProblems('test', {
      en: { nav: { home: 'Home', games: 'Games' } },
      pt: { nav: { home: 'Início' } },
    });
    expect(problems).toEqual([{ catalogue: 'test', language: 'pt', key: 'nav.games', problem: 'missing' }]);
  });

  it('also catches a key only a non-reference language has', () => {
    const problems = findProblems('test', { en: { a: 'A' }, th: { a: 'ก', b: 'ข' } });
    expect(problems).toEqual([{ catalogue: 'test', language: 'en', key: 'b', problem: 'missing' }]);
  });

  it('rejects empty texts and mismatched placeholders', () => {
    const problems = findProblems('test', {
      en: { greet: 'Hello {{name}}', bye: 'Bye' },
      vi: { greet: 'Xin chào {{user}}', bye: ' ' },
    });
    expect(problems.map((item) => `${item.key}:${item.problem}`)).toEqual([
      'bye:empty',
      'greet:placeholders',
    ]);
  });

  it('passes for the real web and contract catalogues', async () => {
    expect(await checkAll()).toEqual([]);
  });
});
