import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Database } from './client.ts';

export const MIGRATIONS_DIR = fileURLToPath(new URL('../../migrations', import.meta.url));

/**
 * Applies `migrations/NNNN_name.sql` in name order, each in its own transaction, once. An advisory
 * lock makes concurrent server processes on one PostgreSQL wait for each other instead of racing.
 * A migration that was applied and then edited is refused: migrations are append-only.
 */
export async function migrate(database: Database, dir = MIGRATIONS_DIR): Promise<string[]> {
  const files = readdirSync(dir)
    .filter((name) => /^\d{4}_[a-z0-9_]+\.sql$/.test(name))
    .sort();
  await database.exec(`
    SELECT pg_advisory_lock(727001);
    CREATE TABLE IF NOT EXISTS schema_migrations (
      name text PRIMARY KEY,
      checksum text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now()
    );`);
  const applied: string[] = [];
  try {
    const rows = await database.db.execute<{ name: string; checksum: string }>(
      'SELECT name, checksum FROM schema_migrations' as never,
    );
    const done = new Map(
      (rows as unknown as { rows: { name: string; checksum: string }[] }).rows.map((r) => [
        r.name,
        r.checksum,
      ]),
    );
    for (const name of files) {
      const sql = readFileSync(join(dir, name), 'utf8');
      // node:crypto, not core/hash.ts: db sits below core (ADR 034).
      const checksum = createHash('sha256').update(sql).digest('hex');
      const previous = done.get(name);
      if (previous !== undefined) {
        if (previous !== checksum) throw new Error(`Migration ${name} was changed after it was applied`);
        continue;
      }
      await database.exec(
        `BEGIN;\n${sql}\n;INSERT INTO schema_migrations (name, checksum) VALUES ('${name}', '${checksum}');\nCOMMIT;`,
      );
      applied.push(name);
    }
  } catch (error) {
    await database.exec('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    await database.exec('SELECT pg_advisory_unlock(727001)');
  }
  return applied;
}
