import { randomBytes } from 'node:crypto';
import {
  AGGREGATOR_SIGNATURE_HEADER,
  formatMinor,
  parseMinor,
  ZAggregatorLaunchRequest,
} from '@sorte/contract';
import { verifyBody } from '@sorte/provider-protocol';
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import { z } from 'zod';
import { BACCARAT_SIDES } from './games.ts';
import { isLang, TEXTS } from './i18n.ts';
import { renderGamePage, renderMissingPage } from './page.ts';
import { PendingCalls, playRound, readBalance, SessionStore, type TPlayResult, validBet } from './play.ts';
import { WalletClient, type WalletClientOptions } from './wallet-client.ts';

export interface AggregatorOptions {
  /** HMAC key shared with the operator (launch requests in, wallet calls out). */
  secret: string;
  /** The operator's seamless-wallet base: …/api/providers/<id>/wallet */
  walletUrl: string;
  /** Loopback by default. */
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  /** Base of the game URLs as players' browsers reach it (default the listening URL). */
  publicUrl?: string;
  /** Wallet client tuning (tests shorten the backoff or inject fetch). */
  wallet?: Partial<Omit<WalletClientOptions, 'walletUrl' | 'secret'>>;
  now?: () => number;
  logger?: boolean;
}

export interface Aggregator {
  listen(): Promise<string>;
  close(): Promise<void>;
  readonly url: string;
  readonly app: FastifyInstance;
  readonly sessions: SessionStore;
  readonly pending: PendingCalls;
}

const MAX_BODY_BYTES = 16 * 1024;
const ZPlayBody = z.strictObject({
  bet: z.string().max(16),
  side: z.enum(BACCARAT_SIDES as [string, ...string[]]).optional(),
});
const ZSessionParams = z.object({ id: z.string().regex(/^[A-Za-z0-9_-]{16,64}$/) });

declare module 'fastify' {
  interface FastifyRequest {
    rawText?: string;
  }
}

/**
 * The demo aggregator: a launch API for the operator (signed), the game pages players see, and the
 * per-session play API those pages call. It speaks to the operator only through the seamless
 * wallet (wallet-client.ts), exactly as a third-party aggregator would.
 */
export function createAggregator(options: AggregatorOptions): Aggregator {
  if (options.secret.length < 32) throw new Error('the aggregator secret must have at least 32 characters');
  const host = options.host ?? '127.0.0.1';
  let url: string | null = options.publicUrl?.replace(/\/+$/, '') ?? null;
  const sessions = new SessionStore(options.now);
  const wallet = new WalletClient({
    walletUrl: options.walletUrl,
    secret: options.secret,
    ...options.wallet,
  });
  const app = Fastify({
    logger: options.logger ?? false,
    bodyLimit: MAX_BODY_BYTES,
    connectionTimeout: 30_000,
    requestTimeout: 30_000,
  });
  const pending = new PendingCalls(wallet, 5_000, (message) => app.log.warn(message));

  app.removeContentTypeParser(['application/json', 'text/plain']);
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    request.rawText = typeof body === 'string' ? body : body.toString('utf8');
    try {
      done(null, request.rawText === '' ? undefined : JSON.parse(request.rawText));
    } catch {
      done(null, undefined);
    }
  });
  app.setErrorHandler((error: { statusCode?: number }, _request, reply) => {
    const status =
      error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
    reply.code(status).send({ error: status === 500 ? 'internal' : 'bad_request' });
  });

  app.get('/healthz', async () => ({ status: 'ok' }));

  app.post('/api/v1/launch', async (request, reply) => {
    if (!verifyBody(options.secret, request.rawText ?? '', request.headers[AGGREGATOR_SIGNATURE_HEADER])) {
      return reply.code(401).send({ error: 'invalid_signature' });
    }
    const launch = ZAggregatorLaunchRequest.safeParse(request.body);
    if (!launch.success || (launch.data.mode === 'real' && !launch.data.token)) {
      return reply.code(400).send({ error: 'invalid_request' });
    }
    const session = sessions.create(launch.data);
    if (!url) throw new Error('the aggregator is not listening yet');
    return { game_url: `${url}/games/${session.game.code}?session=${session.id}` };
  });

  const pageHeaders = (reply: FastifyReply, nonce: string) =>
    reply
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .header('referrer-policy', 'no-referrer')
      .header('x-content-type-options', 'nosniff')
      .header(
        'content-security-policy',
        `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'unsafe-inline'; img-src data:; connect-src 'self'; base-uri 'none'; form-action 'none'`,
      );

  app.get('/games/:code', async (request, reply) => {
    const query = request.query as { session?: string; lang?: string };
    const session = typeof query.session === 'string' ? sessions.get(query.session) : null;
    const nonce = randomBytes(16).toString('base64');
    if (!session || session.game.code !== (request.params as { code: string }).code) {
      const lang = query.lang && isLang(query.lang) ? query.lang : 'en';
      return pageHeaders(reply.code(404), nonce).send(renderMissingPage(lang));
    }
    return pageHeaders(reply, nonce).send(renderGamePage(session, nonce));
  });

  const sessionOf = (params: unknown) => {
    const parsed = ZSessionParams.safeParse(params);
    return parsed.success ? sessions.get(parsed.data.id) : null;
  };

  app.get('/api/v1/sessions/:id/state', async (request, reply) => {
    const session = sessionOf(request.params);
    if (!session)
      return reply.code(404).send({ error: 'unknown_session', message: TEXTS.en.unknown_session });
    const balance = await readBalance(session, wallet);
    const t = TEXTS[session.lang];
    if (balance === 'expired') return { mode: session.mode, balance: null, message: t.session_expired };
    return { mode: session.mode, balance: balance === null ? null : formatMinor(balance) };
  });

  app.post('/api/v1/sessions/:id/play', async (request, reply) => {
    const session = sessionOf(request.params);
    if (!session)
      return reply.code(404).send({ ok: false, error: 'unknown_session', message: TEXTS.en.unknown_session });
    const t = TEXTS[session.lang];
    const body = ZPlayBody.safeParse(request.body);
    const betMinor = body.success ? parseMinor(body.data.bet) : null;
    const input = {
      betMinor: betMinor ?? 0n,
      side: body.success ? (body.data.side as 'player' | 'banker' | 'tie' | undefined) : undefined,
    };
    if (betMinor === null || !validBet(session, input)) {
      return reply.code(400).send({ ok: false, error: 'provider_error', message: t.provider_error });
    }
    // One round at a time per session: a double tap must not place two bets.
    if (session.busy) return reply.code(409).send({ ok: false, error: 'busy', message: t.busy });
    session.busy = true;
    let result: TPlayResult;
    try {
      result = await playRound(session, input, { wallet, pending });
    } finally {
      session.busy = false;
    }
    if (!result.ok) {
      return {
        ok: false,
        error: result.error,
        message: t[result.error],
        balance: result.balanceMinor === null ? null : formatMinor(result.balanceMinor),
      };
    }
    return {
      ok: true,
      outcome: result.outcome,
      bet: formatMinor(result.betMinor),
      win: formatMinor(result.winMinor),
      balance: formatMinor(result.balanceMinor),
      notice: result.notice,
      message: result.notice ? t[result.notice] : null,
    };
  });

  let closed = false;
  return {
    app,
    sessions,
    pending,
    get url() {
      if (!url) throw new Error('the aggregator is not listening yet');
      return url;
    },
    async listen() {
      const address = await app.listen({ host, port: options.port ?? 0 });
      if (!url) url = address.replace('[::1]', 'localhost');
      return url;
    },
    async close() {
      if (closed) return;
      closed = true;
      pending.stop();
      await app.close();
    },
  };
}
