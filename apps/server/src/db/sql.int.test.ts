import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { closeTestDatabases, databaseKinds, testDatabase } from '../../test/databases.ts';
import { containsPattern, isoOf, rowsOf } from './sql.ts';

describe.each(await databaseKinds())('the SQL text helpers on %s', (kind) => {
  afterAll(closeTestDatabases);

  it('isoOf writes a timestamptz in UTC at the precision asked for, NULL as NULL', async () => {
    const { db } = await testDatabase(kind);
    const at = sql`'2026-11-25 11:03:07.123456-03'::timestamptz`;
    const [row] = await rowsOf<Record<string, string | null>>(
      db,
      sql`SELECT ${isoOf(at, 'seconds')} AS seconds, ${isoOf(at)} AS millis, ${isoOf(at, 'micros')} AS micros,
                 ${isoOf(sql`NULL::timestamptz`)} AS none`,
    );
    expect(row).toEqual({
      seconds: '2026-11-25T14:03:07Z',
      millis: '2026-11-25T14:03:07.123Z',
      micros: '2026-11-25T14:03:07.123456Z',
      none: null,
    });
  });

  it('containsPattern finds %, _ and \\ as themselves', async () => {
    const { db } = await testDatabase(kind);
    const [row] = await rowsOf<{ literal: boolean; wildcard: boolean }>(
      db,
      sql`SELECT '50%_off' LIKE ${containsPattern('%_')} AS literal, '50ab' LIKE ${containsPattern('%_')} AS wildcard`,
    );
    expect(row).toEqual({ literal: true, wildcard: false });
  });
});
