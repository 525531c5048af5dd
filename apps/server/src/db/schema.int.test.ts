import { is, sql } from 'drizzle-orm';
import { getTableConfig, PgTable } from 'drizzle-orm/pg-core';
import { afterAll, describe, expect, it } from 'vitest';
import { closeTestDatabases, databaseKinds, testDatabase } from '../../test/databases.ts';
import * as schema from './schema.ts';
import { rowsOf } from './sql.ts';

/**
 * The migrations are the source of truth for the tables; the Drizzle schema must say the same thing,
 * so a query written with the builder reads and writes the columns the database really has.
 */

type TColumnFacts = { nullable: boolean; type: string };
type TTableFacts = Map<string, TColumnFacts>;

/** Each declared table, with its columns' facts as Drizzle states them (several views may share a table). */
function declaredTables(): Map<string, { name: string; columns: TTableFacts }[]> {
  const tables = new Map<string, { name: string; columns: TTableFacts }[]>();
  for (const [name, value] of Object.entries(schema)) {
    if (!is(value, PgTable)) continue;
    const config = getTableConfig(value);
    const columns: TTableFacts = new Map(
      config.columns.map((column) => [
        column.name,
        { nullable: !column.notNull, type: column.getSQLType().replace(/,\s*/g, ',') },
      ]),
    );
    tables.set(config.name, [...(tables.get(config.name) ?? []), { name, columns }]);
  }
  return tables;
}

type TInformationColumn = {
  table_name: string;
  column_name: string;
  is_nullable: 'YES' | 'NO';
  data_type: string;
  udt_name: string;
  numeric_precision: number | null;
  numeric_scale: number | null;
};

/** The type as Drizzle spells it: arrays by their element, numerics with their precision. */
function typeOf(column: TInformationColumn): string {
  if (column.data_type === 'ARRAY') {
    const element = { int8: 'bigint', int4: 'integer', text: 'text' }[column.udt_name.slice(1)];
    return `${element ?? column.udt_name.slice(1)}[]`;
  }
  if (column.data_type === 'numeric' && column.numeric_precision !== null) {
    return `numeric(${column.numeric_precision},${column.numeric_scale})`;
  }
  return column.data_type;
}

describe.each(await databaseKinds())('the Drizzle schema against the migrated database on %s', (kind) => {
  afterAll(closeTestDatabases);

  async function migratedTables(): Promise<Map<string, TTableFacts>> {
    const { db } = await testDatabase(kind);
    const rows = await rowsOf<TInformationColumn>(
      db,
      sql`SELECT c.table_name, c.column_name, c.is_nullable, c.data_type, c.udt_name,
                 c.numeric_precision, c.numeric_scale
            FROM information_schema.columns c
            JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
           WHERE c.table_schema = 'public' AND t.table_type = 'BASE TABLE'
           ORDER BY c.table_name, c.ordinal_position`,
    );
    const tables = new Map<string, TTableFacts>();
    for (const row of rows) {
      const columns = tables.get(row.table_name) ?? new Map<string, TColumnFacts>();
      columns.set(row.column_name, { nullable: row.is_nullable === 'YES', type: typeOf(row) });
      tables.set(row.table_name, columns);
    }
    return tables;
  }

  it('declares every table the migrations create, one declaration with every column', async () => {
    const declared = declaredTables();
    const missing: string[] = [];
    for (const [table, columns] of await migratedTables()) {
      const complete = (declared.get(table) ?? []).some((view) =>
        [...columns.keys()].every((column) => view.columns.has(column)),
      );
      if (!complete) missing.push(table);
    }
    expect(missing).toEqual([]);
  });

  it('declares no table or column the database lacks, each with its nullability and type', async () => {
    const migrated = await migratedTables();
    const differences: string[] = [];
    for (const [table, views] of declaredTables()) {
      const columns = migrated.get(table);
      if (!columns) differences.push(`${table}: no such table`);
      for (const view of views) {
        for (const [column, facts] of view.columns) {
          const actual = columns?.get(column);
          if (columns && !actual) differences.push(`${view.name}.${column}: no such column`);
          else if (actual && (actual.nullable !== facts.nullable || actual.type !== facts.type)) {
            differences.push(
              `${view.name}.${column}: database ${JSON.stringify(actual)}, schema ${JSON.stringify(facts)}`,
            );
          }
        }
      }
    }
    expect(differences).toEqual([]);
  });
});
