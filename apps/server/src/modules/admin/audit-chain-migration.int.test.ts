import { cpSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { type DatabaseKind, databaseKinds, freshPostgres } from '../../../test/databases.ts';
import { seedHistoricalRows } from '../../../test/historical-seed.ts';
import { type Database, openDatabase } from '../../db/client.ts';
import { MIGRATIONS_DIR, migrate } from '../../db/migrate.ts';
import { rowsOf } from '../../db/sql.ts';
import { verifyAuditChain } from './audit.ts';

const kinds = await databaseKinds();
const CHAIN_MIGRATION = '0044_audit_hash_chain.sql';

/** Migration 0044 on a database that already has audit entries: they are hashed once, in order. */
describe.each(kinds)('the audit hash chain migration on %s', (kind: DatabaseKind) => {
  const dir = mkdtempSync(join(tmpdir(), 'sorte-migrations-'));
  let database: Database | undefined;
  afterAll(async () => {
    await database?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('chains the entries written before it per site, then new entries continue each chain', async () => {
    for (const name of readdirSync(MIGRATIONS_DIR).filter((file) => file < CHAIN_MIGRATION)) {
      cpSync(join(MIGRATIONS_DIR, name), join(dir, name));
    }
    database = kind === 'pglite' ? await openDatabase({ kind: 'pglite' }) : await freshPostgres();
    await migrate(database, dir);
    await seedHistoricalRows(database.db);
    const db = database.db;
    const sites = await rowsOf<{ id: string; operator_id: string }>(
      db,
      sql`SELECT s.id::text, (SELECT o.id::text FROM operators o WHERE o.site_id = s.id ORDER BY o.id LIMIT 1)
                 AS operator_id
            FROM sites s WHERE EXISTS (SELECT 1 FROM operators o WHERE o.site_id = s.id) ORDER BY s.id LIMIT 2`,
    );
    expect(sites.length).toBeGreaterThan(0);
    // Entries of the sites interleaved, as a live system writes them.
    for (let i = 0; i < 6; i += 1) {
      for (const site of sites) {
        await db.execute(
          sql`INSERT INTO operator_actions (site_id, operator_id, action, entity, entity_id, before, after, ip)
              VALUES (${site.id}::bigint, ${site.operator_id}::bigint, ${`test.before_chain_${i}`}, 'site',
                      ${site.id}, ${JSON.stringify({ n: i })}::jsonb, ${JSON.stringify({ n: i + 1, big: '9007199254740993' })}::jsonb,
                      '192.0.2.1')`,
        );
      }
    }

    cpSync(join(MIGRATIONS_DIR, CHAIN_MIGRATION), join(dir, CHAIN_MIGRATION));
    expect(await migrate(database, dir)).toEqual([CHAIN_MIGRATION]);

    for (const site of sites) {
      const report = await verifyAuditChain(db, BigInt(site.id));
      expect(report).toMatchObject({ intact: true, entries: 6, broken: null });
      await db.execute(
        sql`INSERT INTO operator_actions (site_id, operator_id, action) VALUES (${site.id}::bigint, ${site.operator_id}::bigint, 'test.after_chain')`,
      );
      const after = await verifyAuditChain(db, BigInt(site.id));
      expect(after).toMatchObject({ intact: true, entries: 7, broken: null });
      expect(after.head_hash).not.toBe(report.head_hash);
      const [first] = await rowsOf<{ prev_hash: string; chain_seq: string }>(
        db,
        sql`SELECT prev_hash, chain_seq::text FROM operator_actions WHERE site_id = ${site.id}::bigint ORDER BY id LIMIT 1`,
      );
      expect(first).toEqual({ prev_hash: '0'.repeat(64), chain_seq: '1' });
    }
    // Still append-only after the migration's one pass.
    await expect(db.execute(sql`UPDATE operator_actions SET ip = '10.0.0.1'`)).rejects.toThrow();
  }, 120_000);
});
