import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

/** One measured scenario of a benchmark, printed as a table row. */
export interface BenchRow {
  what: string;
  concurrency: number;
  count: number;
  perSecond: number;
  p50Ms: number;
  p99Ms: number;
  note: string;
}

/** The p-th percentile (nearest rank) of an ascending list; NaN when it is empty. */
export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index]!;
}

export function fmt(n: number, digits: number): string {
  return Number.isFinite(n) ? n.toFixed(digits) : 'n/a';
}

/** Prints the rows as a Markdown table; the column names say what each benchmark counts. */
export function printTable(
  rows: BenchRow[],
  columns: { concurrency: string; count: string; rate: string },
): void {
  const header = ['scenario', columns.concurrency, columns.count, columns.rate, 'p50 ms', 'p99 ms', 'note'];
  const body = rows.map((r) => [
    r.what,
    String(r.concurrency),
    String(r.count),
    fmt(r.perSecond, 0),
    fmt(r.p50Ms, 2),
    fmt(r.p99Ms, 2),
    r.note,
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((b) => b[i]!.length)));
  const line = (cells: string[]) =>
    `| ${cells.map((c, i) => (i === 0 || i === 6 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join(' | ')} |`;
  console.log(line(header));
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const b of body) console.log(line(b));
}

export async function postgresReachable(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * `pgbench -N` (the "simple update" TPC-B-like script) with `clients` connections against
 * `database` on the same server and in the same run as the benchmark it stands beside, so the two
 * figures share the machine's state. Latencies come from pgbench's per-transaction log.
 */
export function pgbenchRow(adminUrl: URL, database: string, clients: number, seconds: number): BenchRow {
  const which = spawnSync('pgbench', ['--version'], { encoding: 'utf8' });
  if (which.error || which.status !== 0) {
    return {
      what: 'pgbench -N: NOT INSTALLED (no pgbench on PATH)',
      concurrency: clients,
      count: 0,
      perSecond: Number.NaN,
      p50Ms: Number.NaN,
      p99Ms: Number.NaN,
      note: 'install postgresql-client to compare',
    };
  }
  const env = {
    ...process.env,
    PGHOST: adminUrl.hostname,
    PGPORT: adminUrl.port || '5432',
    PGUSER: decodeURIComponent(adminUrl.username),
    PGPASSWORD: decodeURIComponent(adminUrl.password),
    PGDATABASE: database,
  };
  execFileSync('pgbench', ['-i', '-q', '-s', '1'], { env, stdio: 'pipe' });
  const pgBefore = postgresCpuMs();
  const logDir = mkdtempSync(join(tmpdir(), 'pgbench-'));
  try {
    const out = execFileSync(
      'pgbench',
      [
        '-N',
        '-c',
        String(clients),
        '-j',
        '2',
        '-T',
        String(seconds),
        '-l',
        '--log-prefix',
        join(logDir, 'log'),
      ],
      { env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: (seconds + 60) * 1000 },
    );
    const tps = Number(/tps = ([\d.]+) \(without initial connection time\)/.exec(out)?.[1] ?? Number.NaN);
    const count = Number(/number of transactions actually processed: (\d+)/.exec(out)?.[1] ?? 0);
    const pgNote = postgresNote(postgresCpuPer(pgBefore, count), 'transaction');
    // Per-transaction log lines: client_id transaction_no time(us) script_no time_epoch time_us.
    const latencies: number[] = [];
    for (const file of readdirSync(logDir)) {
      for (const line of readFileSync(join(logDir, file), 'utf8').split('\n')) {
        const micros = Number(line.split(' ')[2]);
        if (line.length > 0 && Number.isFinite(micros)) latencies.push(micros / 1000);
      }
    }
    latencies.sort((x, y) => x - y);
    const version = which.stdout.trim().replace(/^pgbench \(PostgreSQL\) /, 'PostgreSQL ');
    return {
      what: `pgbench -N -c ${clients} -j 2 -T ${seconds} (scale 1)`,
      concurrency: clients,
      count,
      perSecond: tps,
      p50Ms: percentile(latencies, 50),
      p99Ms: percentile(latencies, 99),
      note: `pgbench ${version}, same server and run${pgNote}`,
    };
  } finally {
    rmSync(logDir, { recursive: true, force: true });
  }
}

/**
 * CPU time (ms) of every PostgreSQL process on this machine (backends, writer, WAL, and the
 * backends that ended), from /proc; null when there is none to read (PGlite, a remote server, no
 * /proc).
 */
export function postgresCpuMs(): number | null {
  let total = 0;
  let found = false;
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return null;
  }
  for (const pid of pids) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const close = stat.lastIndexOf(')');
      if (!stat.slice(stat.indexOf('(') + 1, close).startsWith('postgres')) continue;
      const fields = stat.slice(close + 2).split(' ');
      // utime, stime, cutime, cstime: fields 14–17 of the line (11–14 after the command). The
      // postmaster's cutime and cstime hold the CPU of the backends that ended (pgbench's).
      const [utime, stime, cutime, cstime] = fields.slice(11, 15).map(Number) as [
        number,
        number,
        number,
        number,
      ];
      total += ((utime + stime + cutime + cstime) * 1000) / CLOCK_TICKS;
      found = true;
    } catch {
      // the process ended meanwhile
    }
  }
  return found ? total : null;
}
const CLOCK_TICKS = 100;

/** PostgreSQL's CPU (ms) per item since a reading of postgresCpuMs, or null where none is read. */
export function postgresCpuPer(before: number | null, count: number): number | null {
  const after = postgresCpuMs();
  if (before === null || after === null) return null;
  return (after - before) / Math.max(1, count);
}

/** "; PostgreSQL CPU x ms/bet" for a postgresCpuPer figure, or nothing. */
export function postgresNote(perItem: number | null, unit: string): string {
  return perItem === null ? '' : `; PostgreSQL processes' CPU ${fmt(perItem, 2)} ms/${unit}`;
}

/**
 * CPU (user and system, ms) of a process and its children so far, and their number, from /proc
 * (Linux): a server run as `npm run serve` is a primary and its cluster workers. Null where /proc
 * is missing or the process is gone.
 */
export function processTreeCpuMs(
  rootPid: number,
): { user: number; system: number; processes: number } | null {
  let names: string[];
  try {
    names = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return null;
  }
  const stats = new Map<number, { ppid: number; user: number; system: number }>();
  for (const name of names) {
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      // After the command: state, ppid (field 4 of the line) … utime, stime (14, 15).
      stats.set(Number(name), {
        ppid: Number(fields[1]),
        user: (Number(fields[11]) * 1000) / CLOCK_TICKS,
        system: (Number(fields[12]) * 1000) / CLOCK_TICKS,
      });
    } catch {
      // the process ended meanwhile
    }
  }
  if (!stats.has(rootPid)) return null;
  const total = { user: 0, system: 0, processes: 0 };
  const inTree = (pid: number): boolean => {
    for (let at: number | undefined = pid, hops = 0; at && hops < 16; hops++) {
      if (at === rootPid) return true;
      at = stats.get(at)?.ppid;
    }
    return false;
  };
  for (const [pid, stat] of stats) {
    if (!inTree(pid)) continue;
    total.user += stat.user;
    total.system += stat.system;
    total.processes += 1;
  }
  return total;
}

/** A database made for one benchmark run on the server of `adminUrl`, dropped after `work` (even when it fails). */
export async function withThrowawayDatabase<T>(
  adminUrl: URL,
  prefix: string,
  work: (url: URL, name: string) => Promise<T>,
) {
  const name = `${prefix}_${process.pid}_${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: adminUrl.toString() });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl.toString());
  url.pathname = `/${name}`;
  try {
    return await work(url, name);
  } finally {
    const dropper = new pg.Client({ connectionString: adminUrl.toString() });
    await dropper.connect();
    await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await dropper.end();
  }
}
