import pg from 'pg';

/**
 * Multi-host connection strings, as libpq reads them:
 *   postgres://user:pass@host1:5432,host2:5433/db?target_session_attrs=read-write
 * node-postgres 8 takes one host only (brianc/node-postgres#2781 is open; its pure-JS driver has
 * no target_session_attrs), so this is the glue: the host list is ours, every connection the
 * server opens (the pool's, the LISTEN ones, the crash leader's lock) asks `PrimaryLocator` for
 * the current primary, checks on connect that the server it reached takes writes, and when that
 * host refused or turned out read-only, forgets it, so the next connection looks again, host by
 * host. After a failover the connections to the old primary fail, their requests answer 503 with
 * Retry-After (isDatabaseUnavailable), and the connections opened next land on the new primary.
 * A single-host URL without target_session_attrs goes to node-postgres as it is.
 */

export type Endpoint = { host: string; port: number };

export type MultiHostUrl = {
  endpoints: Endpoint[];
  /** libpq's connect_timeout (seconds) when the URL gives one. */
  connectTimeoutSeconds: number | null;
  /** target_session_attrs=read-write (or primary): only a server that takes writes will do. */
  readWrite: boolean;
  /** The URL with the first host and without target_session_attrs, for node-postgres's own parser. */
  singleHostUrl: string;
};

const URL_SHAPE = /^(postgres(?:ql)?:\/\/)([^@/?#]*@)?([^/?#]*)(.*)$/;
const DEFAULT_PORT = 5432;
/** target_session_attrs values that ask for a server taking writes (libpq's names). */
const WRITABLE = new Set(['read-write', 'primary']);
const ACCEPTED = new Set(['any', 'read-write', 'primary']);

function endpointOf(text: string): Endpoint {
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(text);
  if (bracketed) return { host: bracketed[1]!, port: bracketed[2] ? Number(bracketed[2]) : DEFAULT_PORT };
  const colon = text.lastIndexOf(':');
  if (colon === -1) return { host: text, port: DEFAULT_PORT };
  const port = Number(text.slice(colon + 1));
  if (!Number.isInteger(port) || port < 1 || port > 65_535) throw new Error(`bad port in host ${text}`);
  return { host: text.slice(0, colon), port };
}

/** Reads a postgres:// URL's host list and target_session_attrs; throws on a URL it cannot read. */
export function parseMultiHostUrl(url: string): MultiHostUrl {
  const match = URL_SHAPE.exec(url);
  if (!match) throw new Error('not a postgres:// URL');
  const [, scheme, credentials = '', hostList = '', rest = ''] = match;
  const endpoints = hostList
    .split(',')
    .filter((part) => part !== '')
    .map(endpointOf);
  if (endpoints.length === 0) endpoints.push({ host: 'localhost', port: DEFAULT_PORT });
  const queryAt = rest.indexOf('?');
  const path = queryAt === -1 ? rest : rest.slice(0, queryAt);
  const params = new URLSearchParams(queryAt === -1 ? '' : rest.slice(queryAt + 1));
  const attrs = params.get('target_session_attrs') ?? 'any';
  if (!ACCEPTED.has(attrs)) throw new Error(`target_session_attrs=${attrs} is not supported`);
  params.delete('target_session_attrs');
  const timeout = params.get('connect_timeout');
  const connectTimeoutSeconds = timeout !== null && /^\d{1,4}$/.test(timeout) ? Number(timeout) : null;
  const first = endpoints[0]!;
  const host = first.host.includes(':') ? `[${first.host}]` : first.host;
  const query = params.toString();
  return {
    endpoints,
    connectTimeoutSeconds,
    readWrite: WRITABLE.has(attrs),
    singleHostUrl: `${scheme}${credentials}${host}:${first.port}${path}${query ? `?${query}` : ''}`,
  };
}

/** An error isDatabaseUnavailable reads as "try again shortly" (SQLSTATE class 08: no connection). */
function noPrimary(message: string, cause?: unknown): Error {
  return Object.assign(new Error(message, { cause }), { code: '08001' });
}

const PROBE = `SELECT pg_is_in_recovery() AS standby, current_setting('transaction_read_only') AS read_only`;
const PROBE_TIMEOUT_MS = 2_000;

/**
 * Points a client not yet connected at one host of the list. A client made from a connection
 * string takes its host and port from it whatever else its config says; node-postgres reads
 * them from these fields when it connects.
 */
function aim(client: pg.Client, endpoint: Endpoint): void {
  const fields = client as unknown as {
    host: string;
    port: number;
    connectionParameters: { host: string; port: number };
  };
  fields.host = endpoint.host;
  fields.port = endpoint.port;
  fields.connectionParameters.host = endpoint.host;
  fields.connectionParameters.port = endpoint.port;
}

type TProbe = { standby: boolean; read_only: string };

/** Whether a connected client's server takes writes (libpq's check for read-write). */
async function writable(client: pg.Client): Promise<boolean> {
  const row = (await client.query<TProbe>(PROBE)).rows[0];
  return row !== undefined && !row.standby && row.read_only === 'off';
}

/**
 * The primary of a host list, as last found. `primary()` answers the host the last connection
 * found writable, or looks host by host (in the URL's order, one probe at a time in flight);
 * `forget` drops a host that refused a connection or answered read-only.
 */
export class PrimaryLocator {
  private known: Endpoint | null = null;
  private looking: Promise<Endpoint> | null = null;

  constructor(
    readonly url: MultiHostUrl,
    private readonly base: pg.ClientConfig,
  ) {}

  async primary(): Promise<Endpoint> {
    if (this.known) return this.known;
    if (!this.url.readWrite) return this.url.endpoints[0]!;
    this.looking ??= this.look().finally(() => {
      this.looking = null;
    });
    return this.looking;
  }

  forget(endpoint: Endpoint): void {
    if (this.known && this.known.host === endpoint.host && this.known.port === endpoint.port)
      this.known = null;
  }

  private async look(): Promise<Endpoint> {
    const failures: string[] = [];
    for (const endpoint of this.url.endpoints) {
      const probe = new pg.Client({ ...this.base, connectionTimeoutMillis: PROBE_TIMEOUT_MS });
      aim(probe, endpoint);
      probe.on('error', () => {});
      try {
        await probe.connect();
        if (await writable(probe)) {
          this.known = endpoint;
          return endpoint;
        }
        failures.push(`${endpoint.host}:${endpoint.port} read-only`);
      } catch (error) {
        failures.push(`${endpoint.host}:${endpoint.port} ${(error as Error).message}`);
      } finally {
        await probe.end().catch(() => undefined);
      }
    }
    throw noPrimary(`no primary among the database hosts (${failures.join('; ')})`);
  }
}

/** Default connect timeout on a host list (libpq moves to the next host after connect_timeout too). */
const CONNECT_TIMEOUT_MS = 5_000;
/** TCP keepalive after this much idle time: a primary whose machine vanished is noticed. */
const KEEPALIVE_AFTER_MS = 10_000;

type TConnectCallback = (error: Error | null, client?: pg.Client) => void;

/**
 * A node-postgres client class whose `connect` lands on the locator's primary: pg.Pool takes it as
 * its `Client`, and `newClient` makes the LISTEN and lock connections of it.
 */
function clientOnPrimary(locator: PrimaryLocator): typeof pg.Client {
  const seconds = locator.url.connectTimeoutSeconds;
  return class PrimaryClient extends pg.Client {
    /**
     * A bounded connect (a host that swallows packets would hold an attempt for minutes; libpq
     * moves on after connect_timeout too) and TCP keepalive (a LISTEN connection to a machine
     * that vanished without a reset would wait forever). On the client, not the pool, whose own
     * connectionTimeoutMillis would also bound the wait for a busy pool's free connection.
     */
    constructor(config?: pg.ClientConfig) {
      super({
        ...config,
        connectionTimeoutMillis:
          config?.connectionTimeoutMillis || (seconds ? seconds * 1000 : CONNECT_TIMEOUT_MS),
        keepAlive: true,
        keepAliveInitialDelayMillis: KEEPALIVE_AFTER_MS,
      });
    }

    // biome-ignore lint/suspicious/noExplicitAny: node-postgres's two overloads (a promise, or a callback as pg-pool calls it)
    override connect(callback?: any): any {
      const connecting = this.connectToPrimary();
      if (!callback) return connecting;
      const done = callback as TConnectCallback;
      connecting.then(
        () => done(null, this as unknown as pg.Client),
        (error: Error) => done(error),
      );
      return undefined;
    }

    private async connectToPrimary(): Promise<void> {
      const at = await locator.primary();
      aim(this, at);
      try {
        await super.connect();
      } catch (error) {
        locator.forget(at);
        // A connect that timed out carries no code: it is "no connection" (SQLSTATE class 08) too.
        if ((error as { code?: unknown }).code === undefined)
          throw noPrimary(`${at.host}:${at.port}: ${(error as Error).message}`, error);
        throw error;
      }
      if (!locator.url.readWrite) return;
      let ok = false;
      try {
        ok = await writable(this);
      } catch (error) {
        locator.forget(at);
        await this.end().catch(() => undefined);
        throw error;
      }
      if (!ok) {
        locator.forget(at);
        await this.end().catch(() => undefined);
        throw noPrimary(`${at.host}:${at.port} is not the primary (read-only)`);
      }
    }
  };
}

const locators = new Map<string, PrimaryLocator>();
const clientClasses = new WeakMap<PrimaryLocator, typeof pg.Client>();

function clientClassOf(locator: PrimaryLocator): typeof pg.Client {
  let made = clientClasses.get(locator);
  if (!made) {
    made = clientOnPrimary(locator);
    clientClasses.set(locator, made);
  }
  return made;
}

/** Whether node-postgres can take the URL as it is (one host, no target_session_attrs). */
function plain(url: string): boolean {
  const parsed = parseMultiHostUrl(url);
  return parsed.endpoints.length === 1 && !parsed.readWrite;
}

/** One locator per URL in the process: the pool and the LISTEN connections share what was found. */
function locatorFor(url: string): PrimaryLocator {
  let locator = locators.get(url);
  if (!locator) {
    const parsed = parseMultiHostUrl(url);
    locator = new PrimaryLocator(parsed, { connectionString: parsed.singleHostUrl });
    locators.set(url, locator);
  }
  return locator;
}

/** The pg.Pool options for a URL: with a client class on the primary when the URL needs one. */
export function poolOptions(url: string): pg.PoolConfig {
  if (plain(url)) return { connectionString: url };
  const locator = locatorFor(url);
  return { connectionString: locator.url.singleHostUrl, Client: clientClassOf(locator) };
}

/** A client (not yet connected) for a URL; `connect()` lands it on the current primary. */
export function newClient(url: string): pg.Client {
  if (plain(url)) return new pg.Client({ connectionString: url });
  const locator = locatorFor(url);
  const Client = clientClassOf(locator);
  return new Client({ connectionString: locator.url.singleHostUrl });
}
