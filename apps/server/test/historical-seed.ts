import { sql } from 'drizzle-orm';
import type { Db } from '../src/db/client.ts';

/**
 * Two sites, each with one member and one operator, written in SQL that the schema of any
 * migration from 0001 on accepts. A test of one migration runs the migrations before it and needs
 * rows to migrate; the demo seed cannot write them there, because it writes through today's Drizzle
 * schema, whose inserts name every column, later ones too.
 */
export async function seedHistoricalRows(db: Db): Promise<void> {
  for (const [code, jurisdiction] of [
    ['hist-intl', 'intl'],
    ['hist-br', 'br'],
  ] as const) {
    await db.execute(sql`
      WITH site AS (
        INSERT INTO sites (code, name, jurisdiction, languages, logo, favicon)
        VALUES (${code}, ${code}, ${jurisdiction}, ARRAY['en', 'pt'], '/logo.svg', '/favicon.svg')
        RETURNING id
      ), member AS (
        INSERT INTO members (site_id, username, password_hash, realname, phone, invite_code)
        SELECT id, ${`${code}-player`.replace('-', '')}, 'x', 'Maria Silva', '11999990000', ${code.toUpperCase().replace('-', '')}
        FROM site
      )
      INSERT INTO operators (site_id, username, password_hash)
      SELECT id, ${`${code}-op`}, 'x' FROM site`);
  }
}
