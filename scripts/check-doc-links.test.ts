import { describe, expect, it } from 'vitest';
import { headingIds, linksOf } from './check-doc-links.ts';

describe('check-doc-links', () => {
  it('spells heading ids as GitHub does: punctuation and symbols dropped, repeats numbered', () => {
    const ids = headingIds(
      [
        '# 1. What one bet costs',
        "## Where PostgreSQL's CPU goes (2026-11-28, 20:40–21:30 UTC)",
        '### `npm run bench:bets` × pgbench',
        '### Runs',
        '### Runs',
        '```sh',
        '# not a heading',
        '```',
        '<a id="dice-target"></a>',
      ].join('\n'),
    );
    expect([...ids].sort()).toEqual(
      [
        '1-what-one-bet-costs',
        'where-postgresqls-cpu-goes-2026-11-28-20402130-utc',
        'npm-run-benchbets--pgbench',
        'runs',
        'runs-1',
        'dice-target',
      ].sort(),
    );
  });

  it('reads inline links outside code spans and fences, with their lines', () => {
    const text = ['See [a](a.md#x) and `[b](b.md)`.', '```', '[c](c.md)', '```', '[d](../d.md "title")'].join(
      '\n',
    );
    expect(linksOf(text)).toEqual([
      { target: 'a.md#x', line: 1 },
      { target: '../d.md', line: 5 },
    ]);
  });
});
