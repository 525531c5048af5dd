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

const kinds = await databaseKinds();
const KEYS_MIGRATION = '0056_category_keys.sql';

/** The rules the profiles seeded before the fix: `live` and `video`, names the catalogue does not use. */
const OLD_RULES = {
  trigger: 'daily_turnover',
  reward: { categoryBps: { slots: 80, live_casino: 50, video: 30 }, minBaseMinor: '1' },
  wagering: { multiple: 1, weights: { default: 100, live: 20, sports: 0 } },
};

/** Migration 0056 on a database whose campaigns and grants were stored with the misspelt keys. */
describe.each(kinds)('the category keys migration on %s', (kind: DatabaseKind) => {
  const dir = mkdtempSync(join(tmpdir(), 'sorte-migrations-'));
  let database: Database | undefined;
  afterAll(async () => {
    await database?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('renames live to live_casino and video to video_game in stored rules and active grants, then refuses unknown keys', async () => {
    for (const name of readdirSync(MIGRATIONS_DIR).filter((file) => file < KEYS_MIGRATION)) {
      cpSync(join(MIGRATIONS_DIR, name), join(dir, name));
    }
    database = kind === 'pglite' ? await openDatabase({ kind: 'pglite' }) : await freshPostgres();
    await migrate(database, dir);
    await seedHistoricalRows(database.db);
    const db = database.db;
    const [member] = await rowsOf<{ id: string; site_id: string }>(
      db,
      sql`SELECT id::text, site_id::text FROM members ORDER BY id LIMIT 1`,
    );
    await db.execute(sql`
      INSERT INTO promo_campaigns (site_id, code, enabled, rules, position)
      VALUES (${member!.site_id}::bigint, 'rebates', true, ${JSON.stringify(OLD_RULES)}::jsonb, 0)`);
    for (const [period, status] of [
      ['active-one', 'active'],
      ['closed-one', 'expired'],
    ] as const) {
      await db.execute(sql`
        INSERT INTO bonus_grants (site_id, member_id, campaign_code, period_key, terms, amount_minor, balance_minor,
                                  wagering_required_minor, status, expires_at, closed_at)
        VALUES (${member!.site_id}::bigint, ${member!.id}::bigint, 'ftd', ${period},
                ${JSON.stringify({ weights: OLD_RULES.wagering.weights })}::jsonb, 1000, 0, 5000, ${status},
                now() + interval '7 days', ${status === 'active' ? null : new Date().toISOString()}::timestamptz)`);
    }

    cpSync(join(MIGRATIONS_DIR, KEYS_MIGRATION), join(dir, KEYS_MIGRATION));
    expect(await migrate(database, dir)).toEqual([KEYS_MIGRATION]);

    const [campaign] = await rowsOf<{ rules: unknown }>(
      db,
      sql`SELECT rules FROM promo_campaigns WHERE site_id = ${member!.site_id}::bigint AND code = 'rebates'`,
    );
    const rules = (typeof campaign!.rules === 'string' ? JSON.parse(campaign!.rules) : campaign!.rules) as {
      reward: { categoryBps: Record<string, number> };
      wagering: { weights: Record<string, number> };
    };
    expect(rules.reward.categoryBps).toEqual({ slots: 80, live_casino: 50, video_game: 30 });
    expect(rules.wagering.weights).toEqual({ default: 100, live_casino: 20, sports: 0 });
    const grants = await rowsOf<{ period_key: string; weights: unknown }>(
      db,
      sql`SELECT period_key, terms -> 'weights' AS weights FROM bonus_grants
          WHERE member_id = ${member!.id}::bigint ORDER BY period_key`,
    );
    const weightsOf = (period: string) => {
      const value = grants.find((g) => g.period_key === period)!.weights;
      return typeof value === 'string' ? JSON.parse(value) : value;
    };
    expect(weightsOf('active-one')).toEqual({ default: 100, live_casino: 20, sports: 0 });
    expect(weightsOf('closed-one')).toEqual({ default: 100, live: 20, sports: 0 });

    const refused = await db
      .execute(sql`
        UPDATE promo_campaigns SET rules = jsonb_set(rules, '{wagering,weights,live}', '20')
        WHERE site_id = ${member!.site_id}::bigint AND code = 'rebates'`)
      .catch((error: Error) => error);
    expect(refused).toBeInstanceOf(Error);
  });
});
