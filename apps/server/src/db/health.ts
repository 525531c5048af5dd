import { sql } from 'drizzle-orm';
import type { Db } from './client.ts';

/** Whether the database answers a trivial query (the readiness probe). */
export async function databaseAnswers(db: Db): Promise<boolean> {
  try {
    await db.execute(sql`SELECT 1`);
    return true;
  } catch {
    return false;
  }
}
