import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { freePort } from '../src/http/free-port.ts';

/**
 * A PostgreSQL 15 cluster run by pg_auto_failover (Debian `postgresql-15-auto-failover`) on
 * loopback ports in a temp dir: a monitor, a primary and a synchronous standby, each a
 * `pg_autoctl` process of its own (as the postgres user when we run as root, as .ci/run does).
 * `startDbCluster` returns once there is a primary and a standby in the primary's quorum
 * (pg_stat_replication says quorum or sync): from then on an acknowledged commit is on both
 * servers. Used by `npm run bench:failover-db` and the failover integration test;
 * `node --import tsx apps/server/test/db-cluster.ts` starts one and prints its URL until Ctrl-C.
 *
 * The monitor's failure detection is tightened for one machine (a node is failed after ~2 s
 * without an answer, its standby promoted after a 3 s demote timeout); the defaults (20 s, 30 s)
 * are for machines on a network. See docs/decisions/041-standby-with-automatic-failover.md.
 */

const PG_BIN = '/usr/lib/postgresql/15/bin';
const DATABASE = 'sorte';

/** Monitor settings (pgautofailover.* GUCs, reloadable): how soon a silent primary is failed over. */
export const MONITOR_SETTINGS: Record<string, number> = {
  'pgautofailover.health_check_period': 1000,
  'pgautofailover.health_check_timeout': 1000,
  'pgautofailover.health_check_max_retries': 1,
  'pgautofailover.health_check_retry_delay': 500,
  'pgautofailover.node_considered_unhealthy_timeout': 2000,
  'pgautofailover.primary_demote_timeout': 3000,
};
/**
 * Keeper setting (seconds): a primary that cannot reach the monitor nor its standby this long
 * stops taking writes. Under primary_demote_timeout, so an isolated old primary has stopped
 * before its standby is promoted (no two primaries).
 */
const NETWORK_PARTITION_TIMEOUT_S = 2;

export type ClusterNode = {
  name: string;
  port: number;
  pgdata: string;
  /** Whether its pg_autoctl process (and so its postgres) is running. */
  running: () => boolean;
};

export type DbCluster = {
  /** The app's URL: every node, target_session_attrs=read-write (from `pg_autoctl show uri`). */
  url: string;
  /** A single-host URL of one node (for checks after the drill). */
  nodeUrl: (node: ClusterNode) => string;
  nodes: ClusterNode[];
  monitorPort: number;
  /** The node the monitor says is primary now, or null. */
  primary: () => Promise<ClusterNode | null>;
  /** Waits until one node is primary with a standby in its synchronous quorum; answers the primary. */
  waitHealthy: (seconds: number) => Promise<ClusterNode>;
  /** SIGKILL to the node's pg_autoctl and its postgres: the machine is gone. */
  kill: (node: ClusterNode) => Promise<void>;
  /** Starts a killed node's pg_autoctl again: it rejoins as a standby (pg_rewind). */
  restart: (node: ClusterNode) => void;
  /** The last lines each process logged (for a failure report). */
  logs: () => string;
  stop: () => Promise<void>;
};

const asRoot = process.getuid?.() === 0;

function which(command: string): boolean {
  try {
    execFileSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Whether this machine can run the cluster (the Debian package is installed). */
export function dbClusterAvailable(): boolean {
  return which('pg_autoctl') && existsSync(join(PG_BIN, 'pg_ctl'));
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function startDbCluster(options: { log?: (line: string) => void } = {}): Promise<DbCluster> {
  if (!dbClusterAvailable())
    throw new Error('pg_autoctl not found: apt-get install postgresql-15-auto-failover');
  const log = options.log ?? (() => undefined);
  const work = mkdtempSync(join(tmpdir(), 'sorte-db-cluster-'));
  chmodSync(work, 0o755);
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
    chownSync(work, uid, gid);
  }
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PG_CONFIG: join(PG_BIN, 'pg_config'),
    XDG_CONFIG_HOME: join(work, 'config'),
    XDG_DATA_HOME: join(work, 'share'),
  };
  for (const name of ['PGHOST', 'PGPORT', 'PGDATABASE', 'PGUSER', 'PGPASSWORD']) delete env[name];
  const command = (args: string[]): [string, string[]] =>
    asRoot ? ['runuser', ['-u', 'postgres', '--', 'pg_autoctl', ...args]] : ['pg_autoctl', args];
  const output = new Map<string, string[]>();
  const remember = (name: string, chunk: Buffer) => {
    const lines = output.get(name) ?? [];
    lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
    output.set(name, lines.slice(-40));
  };
  const run = (name: string, args: string[]): Promise<void> =>
    new Promise((resolve, reject) => {
      const [file, argv] = command(args);
      const child = spawn(file, argv, { cwd: work, env, stdio: ['ignore', 'pipe', 'pipe'] });
      child.stdout.on('data', (chunk: Buffer) => remember(name, chunk));
      child.stderr.on('data', (chunk: Buffer) => remember(name, chunk));
      child.once('error', reject);
      child.once('exit', (code) =>
        code === 0 ? resolve() : reject(new Error(`pg_autoctl ${args[0]} ${args[1]} exited ${code}`)),
      );
    });
  const processes = new Map<string, ChildProcess>();
  const background = (name: string, args: string[]): ChildProcess => {
    const [file, argv] = command(args);
    // Its own process group: a SIGKILL to the group takes pg_autoctl and its postgres together.
    const child = spawn(file, argv, { cwd: work, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    child.stdout?.on('data', (chunk: Buffer) => remember(name, chunk));
    child.stderr?.on('data', (chunk: Buffer) => remember(name, chunk));
    processes.set(name, child);
    return child;
  };
  const alive = (child: ChildProcess | undefined) =>
    child !== undefined && child.exitCode === null && child.signalCode === null;

  const [monitorPort, port1, port2] = [await freePort(), await freePort(), await freePort()];
  const monitorData = join(work, 'monitor');
  const monitorUri = `postgres://autoctl_node@127.0.0.1:${monitorPort}/pg_auto_failover?sslmode=disable`;
  const monitorAdmin = `postgres://postgres@127.0.0.1:${monitorPort}/pg_auto_failover?sslmode=disable`;
  const nodes: ClusterNode[] = [
    { name: 'node1', port: port1, pgdata: join(work, 'node1'), running: () => alive(processes.get('node1')) },
    { name: 'node2', port: port2, pgdata: join(work, 'node2'), running: () => alive(processes.get('node2')) },
  ];
  const nodeUrl = (node: ClusterNode) =>
    `postgres://postgres:postgres@127.0.0.1:${node.port}/${DATABASE}?sslmode=disable`;
  const query = async <T extends pg.QueryResultRow>(url: string, text: string): Promise<T[]> => {
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
    client.on('error', () => {});
    try {
      await client.connect();
      return (await client.query<T>(text)).rows;
    } finally {
      await client.end().catch(() => undefined);
    }
  };

  const stop = async () => {
    for (const [, child] of processes) {
      if (alive(child) && child.pid) {
        try {
          process.kill(-child.pid, 'SIGKILL');
        } catch {
          // already gone
        }
      }
    }
    // The postgres servers a killed pg_autoctl leaves are in its group too; wait for the ports to free.
    await sleep(300);
    rmSync(work, { recursive: true, force: true });
  };

  try {
    log(`db-cluster: monitor on 127.0.0.1:${monitorPort}`);
    await run('monitor-create', [
      'create',
      'monitor',
      '--pgdata',
      monitorData,
      '--pgport',
      String(monitorPort),
      '--hostname',
      '127.0.0.1',
      '--listen',
      '127.0.0.1',
      '--auth',
      'trust',
      '--no-ssl',
      '--pgctl',
      join(PG_BIN, 'pg_ctl'),
    ]);
    background('monitor', ['run', '--pgdata', monitorData]);
    await until(30, async () => (await query(monitorAdmin, 'SELECT 1')).length === 1);
    for (const [name, value] of Object.entries(MONITOR_SETTINGS))
      await query(monitorAdmin, `ALTER SYSTEM SET ${name} = ${value}`);
    await query(monitorAdmin, 'SELECT pg_reload_conf()');

    for (const node of nodes) {
      log(`db-cluster: ${node.name} on 127.0.0.1:${node.port}`);
      await run(`${node.name}-create`, [
        'create',
        'postgres',
        '--pgdata',
        node.pgdata,
        '--pgport',
        String(node.port),
        '--hostname',
        '127.0.0.1',
        '--listen',
        '127.0.0.1',
        '--auth',
        'trust',
        '--no-ssl',
        '--pgctl',
        join(PG_BIN, 'pg_ctl'),
        '--monitor',
        monitorUri,
        '--dbname',
        DATABASE,
        '--name',
        node.name,
      ]);
      await run(`${node.name}-config`, [
        'config',
        'set',
        '--pgdata',
        node.pgdata,
        'timeout.network_partition_timeout',
        String(NETWORK_PARTITION_TIMEOUT_S),
      ]);
      background(node.name, ['run', '--pgdata', node.pgdata]);
      // One at a time: the first becomes the primary, the second its standby.
      await until(60, async () => {
        const rows = await query<{ n: number }>(
          monitorAdmin,
          `SELECT count(*)::int AS n FROM pgautofailover.node WHERE nodename = '${node.name}' AND reportedstate IN ('single', 'wait_primary', 'primary', 'wait_standby', 'catchingup', 'secondary')`,
        );
        return rows[0]!.n === 1;
      });
    }

    const primary = async (): Promise<ClusterNode | null> => {
      const rows = await query<{ nodename: string }>(
        monitorAdmin,
        `SELECT nodename FROM pgautofailover.node WHERE reportedstate IN ('primary', 'wait_primary') AND goalstate IN ('primary', 'wait_primary')`,
      ).catch(() => []);
      return rows.length === 1 ? (nodes.find((n) => n.name === rows[0]!.nodename) ?? null) : null;
    };

    const waitHealthy = async (seconds: number): Promise<ClusterNode> => {
      let found: ClusterNode | null = null;
      await until(seconds, async () => {
        const states = await query<{ nodename: string; reportedstate: string; goalstate: string }>(
          monitorAdmin,
          'SELECT nodename, reportedstate, goalstate FROM pgautofailover.node',
        );
        const head = states.find((s) => s.reportedstate === 'primary' && s.goalstate === 'primary');
        const standby = states.find((s) => s.reportedstate === 'secondary' && s.goalstate === 'secondary');
        const node = head && nodes.find((n) => n.name === head.nodename);
        if (!node || !standby) {
          // pg_basebackup of a new standby waits for a spread checkpoint (minutes when idle): hurry it.
          const writable = states.find((s) => s.reportedstate === 'wait_primary');
          const at = writable && nodes.find((n) => n.name === writable.nodename);
          if (at) await query(nodeUrl(at), 'CHECKPOINT').catch(() => undefined);
          return false;
        }
        const replication = await query<{ sync_state: string }>(
          nodeUrl(node),
          'SELECT sync_state FROM pg_stat_replication',
        );
        const settings = await query<{ names: string; commit: string }>(
          nodeUrl(node),
          `SELECT current_setting('synchronous_standby_names') AS names, current_setting('synchronous_commit') AS commit`,
        );
        if (!replication.some((r) => r.sync_state === 'quorum' || r.sync_state === 'sync')) return false;
        if (settings[0]!.names === '' || settings[0]!.commit === 'off' || settings[0]!.commit === 'local')
          return false;
        found = node;
        return true;
      });
      return found!;
    };

    const kill = async (node: ClusterNode) => {
      const child = processes.get(node.name);
      if (!child?.pid || !alive(child)) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      process.kill(-child.pid, 'SIGKILL');
      await exited;
    };

    const restart = (node: ClusterNode) => {
      background(node.name, ['run', '--pgdata', node.pgdata]);
    };

    const url = showUri(execFileSync, command, env, monitorData);
    await waitHealthy(120);
    return {
      url,
      nodeUrl,
      nodes,
      monitorPort,
      primary,
      waitHealthy,
      kill,
      restart,
      logs: () => [...output.entries()].map(([name, lines]) => `--- ${name}\n${lines.join('\n')}`).join('\n'),
      stop,
    };
  } catch (error) {
    const logs = [...output.entries()].map(([name, lines]) => `--- ${name}\n${lines.join('\n')}`).join('\n');
    await stop();
    throw new Error(`db-cluster did not start: ${(error as Error).message}\n${logs}`);
  }
}

/**
 * The formation's URL as pg_auto_failover gives it (every node, target_session_attrs=read-write),
 * with the app's credentials. The nodes run without TLS on loopback (`--no-ssl`): node-postgres
 * reads libpq's sslmode=prefer as "TLS required", so it becomes sslmode=disable.
 */
function showUri(
  exec: typeof execFileSync,
  command: (args: string[]) => [string, string[]],
  env: NodeJS.ProcessEnv,
  monitorData: string,
): string {
  const [file, argv] = command(['show', 'uri', '--pgdata', monitorData, '--formation', 'default']);
  const uri = exec(file, argv, { env }).toString().trim();
  if (!/target_session_attrs=read-write/.test(uri)) throw new Error(`unexpected formation URI ${uri}`);
  return uri
    .replace('postgres://', 'postgres://postgres:postgres@')
    .replace('sslmode=prefer', 'sslmode=disable');
}

async function until(seconds: number, check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + seconds * 1000;
  let last: unknown = null;
  for (;;) {
    try {
      if (await check()) return;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline)
      throw new Error(`not ready after ${seconds} s${last ? `: ${(last as Error).message}` : ''}`);
    await sleep(250);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const cluster = await startDbCluster({ log: console.log });
  console.log(`db-cluster: up; DATABASE_URL=${cluster.url}`);
  console.log(`db-cluster: primary ${(await cluster.primary())?.name}; Ctrl-C stops it`);
  process.once('SIGINT', () => void cluster.stop().then(() => process.exit(0)));
  await new Promise(() => undefined);
}
