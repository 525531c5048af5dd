import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { Database } from '../db/client.ts';
import { type GroupQueueStats, groupQueueTotals } from '../db/group-queue.ts';
import { databaseAnswers } from '../db/health.ts';
import { transactionConflictTotals } from '../db/transaction-retry.ts';

/**
 * What a load balancer and a monitoring system ask a server process:
 * - `GET /healthz` — liveness: the process answers (no dependency checked);
 * - `GET /readyz` — readiness: the database answers and what starts with the listening server (the
 *   crash engine's first round) has started; 503 before, while the database does not answer and
 *   while the process shuts down, so a proxy sends players only to a process that can serve them;
 * - `GET /metrics` — Prometheus text format: HTTP requests and their durations by route and status,
 *   in-flight requests, readiness, group commit (groups, items, deferred items, rolled-back groups
 *   and the largest group, of in-house bets, crash bets and wallet transfers), transactions run again
 *   after a lock conflict and conflicts left after the last try, and the process's own (CPU, memory,
 *   event-loop lag, GC). Open to loopback callers, or to `Authorization: Bearer <METRICS_TOKEN>`
 *   when a token is configured.
 * These three are left out of the access log (app.ts) and of the request metrics.
 */
export const OPERATIONS_PATHS = ['/healthz', '/readyz', '/metrics'] as const;

/** Whether a route (its pattern; undefined when none matched) is one of the operations paths. */
export function isOperationsPath(route: string | undefined): boolean {
  return (OPERATIONS_PATHS as readonly (string | undefined)[]).includes(route);
}

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Starts a shutdown's drain: /readyz answers 503 from now on so the load balancer stops
     * sending new requests here, while this process keeps serving; `close()` follows after the
     * balancer had time to notice (SHUTDOWN_DRAIN_SECONDS, see server.ts).
     */
    beginDrain(): void;
  }
}

export const operationsPlugin = fp(
  async (
    app: FastifyInstance,
    options: {
      database: Database;
      metricsToken: string | undefined;
      /** What is still starting after the server listens (empty once all has started or failed). */
      starting?: () => string[];
    },
  ) => {
    const registry = new Registry();
    collectDefaultMetrics({ register: registry });
    const requests = new Counter({
      name: 'sorte_http_requests_total',
      help: 'HTTP requests answered, by method, route and status code',
      labelNames: ['method', 'route', 'status'] as const,
      registers: [registry],
    });
    const durations = new Histogram({
      name: 'sorte_http_request_duration_seconds',
      help: 'Time from request to response, by method and route',
      labelNames: ['method', 'route'] as const,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers: [registry],
    });
    const inFlight = new Gauge({
      name: 'sorte_http_requests_in_flight',
      help: 'Requests received and not yet answered',
      registers: [registry],
    });
    const ready = new Gauge({
      name: 'sorte_ready',
      help: '1 while the database answers and the process is not shutting down',
      registers: [registry],
    });
    // Group commit (db/group-queue.ts): this process's totals per queue, read at each scrape.
    const groupMetric = (
      name: string,
      help: string,
      field: keyof GroupQueueStats,
      type: typeof Counter | typeof Gauge,
    ) =>
      new type({
        name,
        help,
        labelNames: ['queue'] as const,
        registers: [registry],
        collect() {
          this.reset();
          for (const [queue, stats] of groupQueueTotals()) {
            if (this instanceof Gauge) this.set({ queue }, stats[field]);
            else this.inc({ queue }, stats[field]);
          }
        },
      });
    groupMetric(
      'sorte_group_commit_groups_total',
      'Transactions posted by group commit, by queue (bets, transfers)',
      'groups',
      Counter,
    );
    groupMetric(
      'sorte_group_commit_items_total',
      'Bets or transfers posted in groups, by queue',
      'items',
      Counter,
    );
    groupMetric(
      'sorte_group_commit_deferred_total',
      'Items of a committed group placed one by one after it (a replayed key, a bonus grant, a due limit change)',
      'deferred',
      Counter,
    );
    groupMetric(
      'sorte_group_commit_rolled_back_total',
      'Groups that rolled back and were posted item by item',
      'rolledBack',
      Counter,
    );
    groupMetric(
      'sorte_group_commit_largest_group',
      'The largest group posted so far, by queue',
      'largestGroup',
      Gauge,
    );

    for (const [name, help, field] of [
      [
        'sorte_transaction_conflict_retries_total',
        'Transactions run again after a deadlock or serialization failure (db/transaction-retry.ts)',
        'retried',
      ],
      [
        'sorte_transaction_conflicts_unresolved_total',
        'Lock conflicts still there after the last try, answered 503',
        'unresolved',
      ],
    ] as const) {
      new Counter({
        name,
        help,
        registers: [registry],
        collect() {
          this.reset();
          this.inc(transactionConflictTotals()[field]);
        },
      });
    }

    // Shutting down (SIGTERM, see server.ts): /readyz says so at once, requests already on a
    // connection are still served (the app is built with return503OnClosing off, so no bet that
    // reached us is refused half-way), and every answer closes its connection, so the process ends
    // as soon as the last in-flight request is answered instead of waiting for keep-alive timeouts.
    let closing = false;
    const drain = () => {
      closing = true;
      ready.set(0);
    };
    app.decorate('beginDrain', drain);
    app.addHook('preClose', async () => drain());
    app.addHook('onSend', async (_request, reply) => {
      if (closing) reply.header('connection', 'close');
    });

    const started = new WeakMap<FastifyRequest, number>();
    app.addHook('onRequest', async (request) => {
      started.set(request, performance.now());
      inFlight.inc();
    });
    app.addHook('onResponse', async (request, reply) => {
      inFlight.dec();
      if (isOperationsPath(request.routeOptions.url)) return;
      // The route's pattern keeps the label set small; unmatched paths share one label.
      const route = request.routeOptions.url ?? 'unmatched';
      requests.inc({ method: request.method, route, status: String(reply.statusCode) });
      const since = started.get(request);
      if (since !== undefined)
        durations.observe({ method: request.method, route }, (performance.now() - since) / 1000);
    });

    app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));

    type TReadiness =
      | { status: 'ready' | 'closing' | 'database unavailable' }
      | { status: 'starting'; starting: string[] };

    /** Whether this process should get players now, and if not why. */
    async function readinessOf(): Promise<TReadiness> {
      if (closing) return { status: 'closing' };
      if (!(await databaseAnswers(options.database.db))) return { status: 'database unavailable' };
      const starting = options.starting?.() ?? [];
      return starting.length > 0 ? { status: 'starting', starting } : { status: 'ready' };
    }

    /** The readiness, also kept in the readiness gauge. */
    async function readiness(): Promise<TReadiness> {
      const answer = await readinessOf();
      ready.set(answer.status === 'ready' ? 1 : 0);
      return answer;
    }

    app.get('/readyz', { schema: { hide: true } }, async (_request, reply) => {
      const answer = await readiness();
      reply.header('cache-control', 'no-store');
      return answer.status === 'ready' ? answer : reply.code(503).send(answer);
    });

    app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
      if (!allowed(request, options.metricsToken)) {
        return reply.code(403).type('text/plain; charset=utf-8').send('forbidden\n');
      }
      await readiness();
      return reply
        .type(registry.contentType)
        .header('cache-control', 'no-store')
        .send(await registry.metrics());
    });
  },
  { name: 'operations' },
);

function allowed(request: FastifyRequest, token: string | undefined): boolean {
  const header = request.headers.authorization;
  if (token && typeof header === 'string') {
    const given = Buffer.from(header.replace(/^Bearer /, ''));
    const wanted = Buffer.from(token);
    if (given.length === wanted.length && timingSafeEqual(given, wanted)) return true;
  }
  // Without a token, only a caller on this machine (a sidecar scraper, an operator's curl).
  const address = request.socket.remoteAddress ?? '';
  return ['127.0.0.1', '::1', '::ffff:127.0.0.1'].includes(address);
}
