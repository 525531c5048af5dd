import pg from 'pg';
import { type Endpoint, parseMultiHostUrl } from './primary.ts';

/**
 * Read replicas (issue 40 §3, ADR 044). `DATABASE_READ_URL` lists hosts (standbys, or a primary)
 * that reads which may be a few seconds old go to: the game record, transaction history, order
 * centre, back-office reports and CSV exports. A `ReadRouter` keeps one pg.Pool per listed host
 * and a background probe per host; every checkout (`connect`, and `query`, which checks out) goes
 * to the first host whose last probe is fresh and whose lag is within the limit, else to the
 * primary's own pool. Reads never wait for a probe: the probe's cost (one round trip per host every
 * PROBE_EVERY_MS) stays off the request's path.
 */

/** How often each read host is asked for its lag. */
export const PROBE_EVERY_MS = 500;
/** A probe answer older than this is no answer (the host stopped answering): reads go elsewhere. */
export const PROBE_FRESH_MS = 1_000 + PROBE_EVERY_MS;
const PROBE_TIMEOUT_MS = 1_000;
const CHECKOUT_TIMEOUT_MS = 2_000;

/**
 * A host's replay lag in seconds, as a standby sees it. A standby that replayed everything it
 * received while its WAL receiver streams is current, however long ago the primary's last
 * transaction was (`now() - pg_last_xact_replay_timestamp()` alone grows on an idle primary). One
 * that holds WAL it has not replayed (replay paused, or slow), or receives nothing, is as old as
 * the last transaction it replayed. A primary has no lag.
 */
export const LAG_PROBE = `SELECT pg_is_in_recovery() AS standby,
  CASE
    WHEN NOT pg_is_in_recovery() THEN 0
    WHEN pg_last_wal_receive_lsn() = pg_last_wal_replay_lsn()
      AND EXISTS (SELECT 1 FROM pg_stat_wal_receiver WHERE status = 'streaming') THEN 0
    ELSE COALESCE(EXTRACT(epoch FROM now() - pg_last_xact_replay_timestamp()), 1e9)
  END::float8 AS lag_s`;

export type THostHealth = {
  endpoint: Endpoint;
  /** Date.now() of the last probe answer, or 0 when none came. */
  answeredAt: number;
  standby: boolean;
  lagS: number;
};

/**
 * Where a read goes: the index of the first host (standbys before primaries, each in the URL's
 * order) whose last probe answered within PROBE_FRESH_MS and whose lag is at most `maxLagS`; -1
 * for the primary's own pool.
 */
export function chooseReadHost(hosts: readonly THostHealth[], maxLagS: number, now: number): number {
  const usable = (h: THostHealth) =>
    h.answeredAt > 0 && now - h.answeredAt <= PROBE_FRESH_MS && h.lagS <= maxLagS;
  const standby = hosts.findIndex((h) => h.standby && usable(h));
  if (standby !== -1) return standby;
  return hosts.findIndex((h) => !h.standby && usable(h));
}

/** The URL of one host of a (multi-host) URL, without target_session_attrs. */
function hostUrl(singleHostUrl: string, endpoint: Endpoint): string {
  const url = new URL(singleHostUrl);
  url.hostname = endpoint.host.includes(':') ? `[${endpoint.host}]` : endpoint.host;
  url.port = String(endpoint.port);
  return url.toString();
}

/** One read host: its pool, its probe connection and what the probe last said. */
class ReadHost {
  readonly health: THostHealth;
  readonly pool: pg.Pool;
  private probe: pg.Client | null = null;
  private probing = false;

  constructor(
    readonly url: string,
    endpoint: Endpoint,
    poolMax: number,
    onConnect: (client: pg.PoolClient) => void,
  ) {
    this.health = { endpoint, answeredAt: 0, standby: false, lagS: Number.POSITIVE_INFINITY };
    this.pool = new pg.Pool({
      connectionString: url,
      max: poolMax,
      pipeline: true,
      // A host that died between two probes, or a pool whose connections are all busy, answers
      // within this; the checkout then goes to the primary (`ReadRouterPool.connect`).
      connectionTimeoutMillis: CHECKOUT_TIMEOUT_MS,
      keepAlive: true,
      application_name: 'sorte-read',
    });
    this.pool.on('error', () => {});
    this.pool.on('connect', (client) => {
      client.on('error', () => {});
      onConnect(client);
    });
  }

  /** Asks the host for its lag once; an error leaves the last answer to go stale. */
  async check(): Promise<void> {
    if (this.probing) return;
    this.probing = true;
    try {
      if (!this.probe) {
        const client = new pg.Client({
          connectionString: this.url,
          connectionTimeoutMillis: PROBE_TIMEOUT_MS,
          query_timeout: PROBE_TIMEOUT_MS,
          application_name: 'sorte-read-probe',
        });
        client.on('error', () => {});
        this.probe = client;
        await client.connect();
      }
      const row = (await this.probe.query<{ standby: boolean; lag_s: number }>(LAG_PROBE)).rows[0]!;
      this.health.standby = row.standby;
      this.health.lagS = row.lag_s;
      this.health.answeredAt = Date.now();
    } catch {
      const lost = this.probe;
      this.probe = null;
      await lost?.end().catch(() => undefined);
    } finally {
      this.probing = false;
    }
  }

  async close(): Promise<void> {
    await this.probe?.end().catch(() => undefined);
    await this.pool.end();
  }
}

export type TReadCounts = { replica: number; primary: number };

type TQueryArgs = Parameters<pg.Pool['query']>;

/**
 * A pool-shaped router drizzle runs on (`drizzle(router)`; the name ends in Pool, which drizzle
 * reads as "check out a connection for a transaction"). Each checkout goes to the host
 * `chooseReadHost` picks, or to the primary's pool; a checkout that fails on a read host (it went
 * away between two probes) is made on the primary instead. `counts` says how many checkouts
 * went where (tests and the bench read it).
 */
export class ReadRouterPool {
  readonly counts: TReadCounts = { replica: 0, primary: 0 };
  private readonly hosts: ReadHost[];
  private readonly timer: NodeJS.Timeout;

  private readonly maxLagS: number;

  constructor(
    private readonly primary: pg.Pool,
    options: { url: string; maxLagS: number; poolMax: number; onConnect: (client: pg.PoolClient) => void },
  ) {
    this.maxLagS = options.maxLagS;
    const parsed = parseMultiHostUrl(options.url);
    this.hosts = parsed.endpoints.map(
      (endpoint) =>
        new ReadHost(hostUrl(parsed.singleHostUrl, endpoint), endpoint, options.poolMax, options.onConnect),
    );
    this.timer = setInterval(() => this.checkAll(), PROBE_EVERY_MS);
    this.timer.unref();
    void this.checkAll();
  }

  /** What each read host's probe last said (copies). */
  health(): THostHealth[] {
    return this.hosts.map((host) => ({ ...host.health }));
  }

  /** Where the next read goes: a read host's pool, or null for the primary's. */
  target(): pg.Pool | null {
    const at = chooseReadHost(
      this.hosts.map((host) => host.health),
      this.maxLagS,
      Date.now(),
    );
    return at === -1 ? null : this.hosts[at]!.pool;
  }

  /** Probes every host now (also run every PROBE_EVERY_MS); resolves when they answered or failed. */
  checkAll(): Promise<void> {
    return Promise.all(this.hosts.map((host) => host.check())).then(() => undefined);
  }

  connect(): Promise<pg.PoolClient> {
    const pool = this.target();
    if (!pool) {
      this.counts.primary += 1;
      return this.primary.connect();
    }
    return pool.connect().then(
      (client) => {
        this.counts.replica += 1;
        return client;
      },
      () => {
        this.counts.primary += 1;
        return this.primary.connect();
      },
    );
  }

  /** A statement outside a transaction: on a connection checked out as `connect` does. */
  async query(...args: TQueryArgs): Promise<pg.QueryResult> {
    const client = await this.connect();
    try {
      const result = await (client.query as (...a: TQueryArgs) => Promise<pg.QueryResult>)(...args);
      client.release();
      return result;
    } catch (error) {
      // A connection that failed is not pooled again (as pg.Pool's own `query` releases it).
      client.release(error as Error);
      throw error;
    }
  }

  async end(): Promise<void> {
    clearInterval(this.timer);
    await Promise.all(this.hosts.map((host) => host.close()));
  }
}
