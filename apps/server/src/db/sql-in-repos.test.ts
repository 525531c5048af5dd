import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { describe, expect, it } from 'vitest';

const SERVER_SRC = join(import.meta.dirname, '..');

/**
 * Files that may hold SQL text: the repos, which only talk to the database; `db/`, the SQL helpers
 * and the schema; the Drizzle table declarations (`*.schema.ts`: their `sql` is a column default or
 * a check, not a query); and test code (`*.test.ts`, and a `*.fixtures.ts` no server code imports).
 */
function mayHoldSql(path: string, importedByServer: (path: string) => boolean = () => false): boolean {
  if (path.startsWith(`db${sep}`) || /\.(repo|schema|test)\.ts$/.test(path)) return true;
  return path.endsWith('.fixtures.ts') && !importedByServer(path);
}

/**
 * The wallet builds and runs the ledger's statements (ADR 033): its posting files hold the SQL of
 * the transfers and balances that games' side parts (their `*.repo.ts`) ride with. Nothing else.
 */
const LEDGER_STATEMENTS = ['modules/wallet/'];

/** The drizzle `sql` tag (and its `raw`/`join`), a statement run with an argument, the SQL helpers. */
const SQL_IN_CODE = /\bsql(<[^>]*>)?(`|\.raw\(|\.join\()|\.execute\(\s*[^)\s]|\b(prepared)?[rR]owsOf\s*[<(]/g;

/** Every place in `text` that holds SQL, as `line: code` (a statement may span lines). */
function sqlPlaces(text: string): string[] {
  const lines = text.split('\n');
  const at = new Set<number>();
  for (const match of text.matchAll(SQL_IN_CODE)) at.add(text.slice(0, match.index).split('\n').length);
  return [...at].map((line) => `${line}: ${lines[line - 1]!.trim()}`);
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

const posix = (path: string) => path.split(sep).join('/');

function sqlOutsideRepos(): string[] {
  const files = sourceFiles(SERVER_SRC);
  const serverCode = files
    .filter((file) => !/\.(test|fixtures)\.ts$/.test(file))
    .map((file) => readFileSync(file, 'utf8'))
    .join('\n');
  // Fixtures the server itself imports (a schedule parser, say) are server code like any other.
  const importedByServer = (path: string) => serverCode.includes(`/${path.split(sep).at(-1)}'`);
  return files.flatMap((file) => {
    const path = relative(SERVER_SRC, file);
    if (mayHoldSql(path, importedByServer)) return [];
    if (LEDGER_STATEMENTS.some((allowed) => posix(path).startsWith(allowed))) return [];
    return sqlPlaces(readFileSync(file, 'utf8')).map((place) => `${posix(path)}:${place}`);
  });
}

describe('where the server holds SQL', () => {
  it('keeps SQL in the *.repo.ts files and db/: services, routes and engines hold decisions only', () => {
    expect(sqlOutsideRepos()).toEqual([]);
  });

  it('finds SQL in each of its spellings, and not in a call of a repo function', () => {
    expect(sqlPlaces('const rows = await rowsOf<{ id: string }>(')).toHaveLength(1);
    expect(sqlPlaces('await preparedRowsOf(tx, name, statement)')).toHaveLength(1);
    expect(sqlPlaces('x\nsql`SELECT 1`')).toEqual(['2: sql`SELECT 1`']);
    expect(sqlPlaces('const values = sql.join(rows, comma);')).toHaveLength(1);
    expect(sqlPlaces('await tx.execute(\n  lockMember(memberId),\n);')).toEqual(['1: await tx.execute(']);
    // A Drizzle query built and run (`.execute()`) and a repo's function hold no SQL text.
    expect(sqlPlaces('await db.select().from(members).execute();')).toEqual([]);
    expect(sqlPlaces('const row = await findSportsSettings(executor, site.id);')).toEqual([]);
  });

  it('lets only repos, db/, schema declarations and test code hold SQL', () => {
    expect(mayHoldSql(join('modules', 'sports', 'sports.repo.ts'))).toBe(true);
    expect(mayHoldSql(join('db', 'client.ts'))).toBe(true);
    expect(mayHoldSql(join('modules', 'sports', 'sports.service.ts'))).toBe(false);
    expect(mayHoldSql(join('modules', 'sports', 'sports.routes.ts'))).toBe(false);
    expect(mayHoldSql(join('modules', 'deposits', 'money.fixtures.ts'))).toBe(true);
    expect(mayHoldSql(join('modules', 'sports', 'sports.fixtures.ts'), () => true)).toBe(false);
  });
});
