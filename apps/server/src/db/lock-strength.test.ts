import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const SERVER_SRC = join(import.meta.dirname, '..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

/** Row locks taken at UPDATE strength: by SQL text, or by drizzle's `.for('update')`. */
const FULL_UPDATE_LOCK = /\bFOR\s+UPDATE\b|\.for\(\s*['"]update['"]/i;

/**
 * The first rule of the lock order (docs/decisions/029-one-lock-order.md): a row is locked FOR NO
 * KEY UPDATE, never FOR UPDATE, unless the transaction deletes it or changes its key. Every insert
 * into a table with a foreign key takes FOR KEY SHARE on the parent row (the member, the account,
 * the order); FOR UPDATE conflicts with that and FOR NO KEY UPDATE does not, so a FOR UPDATE on a
 * parent row makes a member's parallel bet and withdrawal wait on each other: a deadlock.
 */
describe('row locks of the server', () => {
  it('takes no FOR UPDATE lock anywhere: FOR NO KEY UPDATE, since no transaction deletes a row it locked or changes its key', () => {
    const found = sourceFiles(SERVER_SRC).flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .flatMap((line, i) =>
          FULL_UPDATE_LOCK.test(line) ? [`${relative(SERVER_SRC, file)}:${i + 1}: ${line.trim()}`] : [],
        ),
    );
    expect(found).toEqual([]);
  });

  it('finds a FOR UPDATE lock in either spelling', () => {
    expect(FULL_UPDATE_LOCK.test('sql`SELECT id FROM members WHERE id = 1 FOR UPDATE`')).toBe(true);
    expect(FULL_UPDATE_LOCK.test(".for('update')")).toBe(true);
    expect(FULL_UPDATE_LOCK.test('FOR NO KEY UPDATE OF a')).toBe(false);
    expect(FULL_UPDATE_LOCK.test(".for('no key update')")).toBe(false);
  });
});
