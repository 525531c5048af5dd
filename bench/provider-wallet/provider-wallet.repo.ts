import { sql } from 'drizzle-orm';
import type { Database } from '../../apps/server/src/db/client.ts';

/**
 * ANALYZE once the players are set up and after the warm-up, as autovacuum does on a database in
 * service: the statements are prepared once per connection and keep a generic plan, and a plan
 * made on the statistics of empty tables reads them whole as they grow (bench/bets does the same).
 */
export async function analyze(database: Database): Promise<void> {
  await database.db.execute(sql`ANALYZE`);
}
