import fs, { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type Database, openDatabase } from './client.ts';
import { rowsOf } from './sql.ts';

const setting = async (database: Database, name: 'fsync' | 'wal_sync_method') =>
  (await rowsOf<Record<string, string>>(database.db, sql.raw(`SHOW ${name}`)))[0]![name];

describe('the embedded database on disk', () => {
  const dirs: string[] = [];
  afterEach(() => {
    vi.restoreAllMocks();
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('runs with fsync on, and a commit is synced to the disk before it answers', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sorte-durable-'));
    dirs.push(dir);
    const database = await openDatabase({ kind: 'pglite', dataDir: dir });
    try {
      expect(await setting(database, 'fsync')).toBe('on');
      // fdatasync is answered without a system call by PGlite's runtime: the WAL must use fsync.
      expect(await setting(database, 'wal_sync_method')).toBe('fsync');
      await database.exec('CREATE TABLE durable_probe (n int)');

      const synced: number[] = [];
      const fsync = fs.fsyncSync;
      vi.spyOn(fs, 'fsyncSync').mockImplementation((fd) => {
        synced.push(fd);
        fsync(fd);
      });
      await database.db.transaction(async (tx) => {
        await tx.execute(sql`INSERT INTO durable_probe VALUES (1)`);
        // Nothing is synced before the commit is asked for.
        expect(synced).toEqual([]);
      });
      expect(synced.length).toBeGreaterThanOrEqual(1);
      const afterCommit = synced.length;
      await database.db.execute(sql`SELECT count(*) FROM durable_probe`);
      // A read commits nothing: no sync.
      expect(synced.length).toBe(afterCommit);
    } finally {
      await database.close();
    }

    const reopened = await openDatabase({ kind: 'pglite', dataDir: dir });
    try {
      expect(await rowsOf<{ n: number }>(reopened.db, sql`SELECT n FROM durable_probe`)).toEqual([{ n: 1 }]);
    } finally {
      await reopened.close();
    }
  });

  it('keeps fsync off in memory, where there is no disk to sync', async () => {
    const database = await openDatabase({ kind: 'pglite' });
    try {
      expect(await setting(database, 'fsync')).toBe('off');
    } finally {
      await database.close();
    }
  });
});
