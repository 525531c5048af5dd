import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { closeTestDatabases, databaseKinds, testDatabase } from '../../test/databases.ts';
import { rowsOf } from './sql.ts';

/**
 * Migration 0052 rewrote every "64 lowercase hex digits" CHECK without the bounded regular expression
 * (issue 16: a visible share of PostgreSQL's CPU on the bet path). Each rewritten constraint, as
 * the database stores it, must accept exactly what '^[0-9a-f]{64}$' accepted.
 */
const HEX64 = '^[0-9a-f]{64}$';

const candidates = fc.oneof(
  fc.stringMatching(/^[0-9a-f]{64}$/),
  fc.stringMatching(/^[0-9a-fA-F]{62,66}$/),
  fc.stringMatching(/^[0-9a-g]{63,65}$/),
  fc
    .tuple(fc.stringMatching(/^[0-9a-f]{60,64}$/), fc.constantFrom('é', 'ß', '٣', ' ', '\n', '-', 'ａ'))
    .map(([hex, odd]) => (hex + odd).slice(-64)),
);

describe.each(await databaseKinds())('hex CHECK constraints on %s', (kind) => {
  afterAll(closeTestDatabases);

  it('no constraint checks a 64-digit hex value with the bounded regular expression any more', async () => {
    const { db } = await testDatabase(kind);
    const left = await rowsOf<{ name: string }>(
      db,
      sql`SELECT conname AS name FROM pg_constraint
          WHERE contype = 'c' AND pg_get_constraintdef(oid) LIKE ${'%{64}%'}`,
    );
    expect(left).toEqual([]);
  });

  it('each rewritten constraint accepts exactly the values the old rule accepted, and NULL', async () => {
    const { db } = await testDatabase(kind);
    const rewritten = await rowsOf<{ table: string; name: string; column: string; check: string }>(
      db,
      sql`SELECT c.conrelid::regclass::text AS table, c.conname AS name, a.attname AS column,
            pg_get_expr(c.conbin, c.conrelid) AS check
          FROM pg_constraint c JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = c.conkey[1]
          WHERE c.contype = 'c' AND pg_get_constraintdef(c.oid) LIKE ${"%!~ '[^0-9a-f]'%"}
          ORDER BY 1, 2`,
    );
    expect(rewritten.map((r) => r.name)).toContain('wallet_transfers_hash');
    expect(rewritten.map((r) => r.name)).toContain('fairness_seed_pairs_server_seed_check');
    // Migration 0052's nineteen, the regulator files' two checksums (0064), the compliance reports'
    // checksum (0065), the CPF lookups' digest (0066).
    expect(rewritten).toHaveLength(23);
    const values = fc.sample(candidates, { numRuns: 300, seed: 52 });
    for (const { name, column, check } of rewritten) {
      const rows = await rowsOf<{ value: string | null; now: boolean | null; before: boolean | null }>(
        db,
        sql`SELECT ${sql.identifier(column)} AS value, (${sql.raw(check)}) AS now,
              ${sql.identifier(column)} ~ ${HEX64} AS before
            FROM jsonb_array_elements_text(${JSON.stringify([...values, null])}::jsonb)
              AS probe(${sql.identifier(column)})`,
      );
      expect(rows).toHaveLength(values.length + 1);
      for (const row of rows)
        expect({ name, value: row.value, now: row.now }).toEqual({ name, value: row.value, now: row.before });
      expect(rows.filter((r) => r.now === true).length).toBeGreaterThan(0);
      expect(rows.filter((r) => r.now === false).length).toBeGreaterThan(0);
    }
  });
});
