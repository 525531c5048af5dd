import { randomUUID } from 'node:crypto';
import {
  type TCrashClientMessage,
  type TLanguage,
  translate,
  ZCrashBetRequest,
  ZCrashBetResponse,
  ZCrashCashoutRequest,
  ZCrashChainsQuery,
  ZCrashChainsResponse,
  ZCrashClientMessage,
  ZCrashHistoryQuery,
  ZCrashHistoryResponse,
  ZCrashState,
  ZLangQuery,
} from '@sorte/contract';
import { CRASH_SALT_MAX_SEEDS } from '@sorte/fairness';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { AppError, isAppError } from '../../errors.ts';
import { ok, responses } from '../../http/reply.ts';
import { memberOf } from '../../plugins/session-auth.ts';
import { assertStorableInput } from '../../plugins/storable-input.ts';
import { requireDemoPlayer } from '../originals/demo.service.ts';
import { authenticateMember } from '../sessions/sessions.service.ts';
import { formatHundredths } from './crash.curve.ts';
import { CrashEngine, type CrashListener, type CrashPlayer, type CrashStartOptions } from './crash.engine.ts';
import { crashedHistory, listChains, type TChainRow } from './crash.repo.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The crash round engine (started when the server listens, or by a test with its own clock). */
    crash: CrashEngine;
    /** Whether the crash engine is still starting (from listen until its first round, or failing). */
    crashStarting(): boolean;
  }
}

const tags = ['crash'];
const security = [{ bearerAuth: [] }];
const MAX_MESSAGES_PER_SECOND = 10;

/** A refusal as a client sees it: the stable code and the message in the socket's language. */
function refusal(lang: TLanguage, error: unknown): { code: string; message: string } {
  if (isAppError(error))
    return { code: error.code, message: translate(lang, error.messageKey, error.params) };
  return { code: 'INTERNAL', message: translate(lang, 'errors.INTERNAL') };
}

/** A chain as published: never its terminal seed. */
function chainView(chain: TChainRow) {
  const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
  return {
    id: chain.id.toString(),
    terminating_hash: chain.terminatingHash,
    committed_at: new Date(chain.createdAt).toISOString(),
    length: chain.length,
    rounds_played: chain.position,
    salt: chain.publicSalt,
    salt_fixed_at: iso(chain.saltFixedAt),
    salt_source: chain.saltSource,
    salt_inputs: (chain.saltInputs ?? []).map((input) => ({
      bet_id: input.betId,
      client_seed: input.clientSeed,
    })),
  };
}

/**
 * Crash: the engine, the WebSocket `GET /ws/crash` and the HTTP calls under /api/crash.
 *
 * WebSocket protocol (JSON text frames). Anyone may watch; a member sends
 * `{ "type": "auth", "token": "<session token>" }` (never in the URL) to bet real money, a guest
 * `{ "type": "demo", "demo_token": "<demo session token>" }` to bet its demo session's fun money.
 *   server → `state` at once, at every phase change and after auth (with `my_bet`);
 *            `tick { round_id, multiplier, at }` every 100 ms while running;
 *            `crashed { round_id, crash_point, round_hash }` (the first message naming them);
 *            `bet_accepted { bet, balance }` / `bet_refused { code, message }`;
 *            `cashed_out { round_id, bet_id, multiplier, payout }` / `cashout_refused { code, message }`;
 *            `ready { member }` after auth; `pong`; `error { code, message }`.
 *   client → `bet { amount, auto_cashout?, idempotency_key, client_seed? }`, `cashout { round_id }`, `ping`.
 * A reconnecting client gets the current state (and, once authenticated, its own bet).
 */
export const crashPlugin = fp(
  async (
    app: FastifyInstance,
    options: { autoStart: boolean; lockUrl?: string | undefined; start?: CrashStartOptions },
  ) => {
    const { db } = app.services;
    const engine = new CrashEngine(db, {
      onBalance: (member, reason) => {
        void app.realtime.publishBalance(member.siteId, member.memberId, reason);
      },
      onError: (error) => app.log.warn({ err: error }, 'crash engine step failed'),
    });
    app.decorate('crash', engine);
    // Until the start below has settled, /readyz says the process is starting: a bet sent as soon
    // as it said ready would find no round (GAME_UNAVAILABLE).
    let starting = options.autoStart;
    app.decorate('crashStarting', () => starting);
    app.addHook('onListen', async () => {
      if (!options.autoStart) return;
      // A database hiccup at start must not stop the server listening: the game answers
      // GAME_UNAVAILABLE until a later start succeeds.
      await engine
        .start({ lockUrl: options.lockUrl, ...options.start })
        .catch((error: unknown) => app.log.error({ err: error }, 'crash engine did not start'))
        .finally(() => {
          starting = false;
        });
    });
    app.addHook('onClose', async () => {
      await engine.stop();
    });

    app.get('/ws/crash', { websocket: true, schema: { hide: true } }, (socket, request) => {
      const lang = request.lang;
      const listener: CrashListener = { send: (text) => socket.send(text), player: null };
      const send = (message: Record<string, unknown>) => socket.send(JSON.stringify(message));
      let authenticating = false;

      const sendState = async () => {
        try {
          send({ type: 'state', ...(await engine.state(listener.player)) });
        } catch (error) {
          send({ type: 'error', ...refusal(lang, error) });
        }
      };

      if (!engine.addListener(listener)) {
        socket.close(4429, 'too many connections');
        return;
      }
      void sendState();

      const handle = async (message: TCrashClientMessage) => {
        if (message.type === 'ping') {
          send({ type: 'pong' });
          return;
        }
        if (message.type === 'demo') {
          if (listener.player || authenticating) return;
          authenticating = true;
          try {
            const demo = await requireDemoPlayer(db, request.site.id, message.demo_token);
            listener.player = { kind: 'demo', siteId: demo.siteId, demoSessionId: demo.demoSessionId };
          } catch (error) {
            send({ type: 'error', ...refusal(lang, error) });
            return;
          } finally {
            authenticating = false;
          }
          send({ type: 'ready', member: false, demo: true });
          await sendState();
          return;
        }
        if (message.type === 'auth') {
          if (listener.player || authenticating) return;
          authenticating = true;
          try {
            const auth = await authenticateMember(db, request.site, message.token);
            listener.player = { kind: 'member', siteId: auth.siteId, memberId: auth.memberId };
          } catch {
            send({
              type: 'error',
              code: 'UNAUTHENTICATED',
              message: translate(lang, 'errors.UNAUTHENTICATED'),
            });
            socket.close(4401, 'unauthenticated');
            return;
          } finally {
            authenticating = false;
          }
          send({ type: 'ready', member: true });
          await sendState();
          return;
        }
        const member = listener.player;
        if (!member) {
          const refused = { code: 'UNAUTHENTICATED', message: translate(lang, 'errors.UNAUTHENTICATED') };
          send({ type: message.type === 'bet' ? 'bet_refused' : 'cashout_refused', ...refused });
          return;
        }
        if (message.type === 'bet') {
          try {
            const placed = await engine.placeBet(member, {
              amount: message.amount,
              autoCashout: message.auto_cashout,
              idempotencyKey: message.idempotency_key,
              clientSeed: message.client_seed,
            });
            send({ type: 'bet_accepted', bet: placed.bet, balance: placed.balance });
          } catch (error) {
            if (!isAppError(error)) request.log.error({ err: error }, 'crash bet failed');
            send({ type: 'bet_refused', ...refusal(lang, error) });
          }
          return;
        }
        try {
          // Success reaches every socket of the member as `cashed_out` (the engine announces it).
          // Taken now: nothing was awaited since the message was read.
          await engine.cashOut(member, BigInt(message.round_id), engine.now());
        } catch (error) {
          if (!isAppError(error)) request.log.error({ err: error }, 'crash cash-out failed');
          send({ type: 'cashout_refused', ...refusal(lang, error) });
        }
      };

      // A socket may send a few messages a second (bets and cash-outs are database transactions).
      let windowStart = Date.now();
      let inWindow = 0;
      socket.on('message', (raw: Buffer) => {
        const now = Date.now();
        if (now - windowStart >= 1_000) {
          windowStart = now;
          inWindow = 0;
        }
        inWindow += 1;
        if (inWindow > MAX_MESSAGES_PER_SECOND) {
          send({
            type: 'error',
            code: 'RATE_LIMITED',
            message: translate(lang, 'errors.RATE_LIMITED', { seconds: 1 }),
          });
          return;
        }
        let parsed: TCrashClientMessage;
        try {
          const message: unknown = JSON.parse(raw.toString('utf8'));
          assertStorableInput({ message });
          parsed = ZCrashClientMessage.parse(message);
        } catch {
          send({ type: 'error', code: 'BAD_REQUEST', message: translate(lang, 'errors.BAD_REQUEST') });
          return;
        }
        void handle(parsed).catch((error: unknown) => request.log.warn({ err: error }, 'crash socket'));
      });
      socket.on('close', () => {
        engine.removeListener(listener);
      });
    });

    await app.register(
      async (api) => {
        const r = api.withTypeProvider<ZodTypeProvider>();

        /** The guest demo session named by X-Demo-Token (it takes precedence, as for the originals). */
        async function demoPlayer(request: FastifyRequest): Promise<CrashPlayer | null> {
          const token = request.headers['x-demo-token'];
          if (typeof token !== 'string' || token === '') return null;
          const demo = await requireDemoPlayer(db, request.site.id, token);
          return { kind: 'demo', siteId: demo.siteId, demoSessionId: demo.demoSessionId };
        }

        async function optionalPlayer(request: FastifyRequest): Promise<CrashPlayer | null> {
          const demo = await demoPlayer(request);
          if (demo) return demo;
          if (!request.headers.authorization) return null;
          await app.requireMember(request);
          const { siteId, memberId } = memberOf(request);
          return { kind: 'member', siteId, memberId };
        }

        async function player(request: FastifyRequest): Promise<CrashPlayer> {
          const demo = await demoPlayer(request);
          if (demo) return demo;
          await app.requireMember(request);
          const { siteId, memberId } = memberOf(request);
          return { kind: 'member', siteId, memberId };
        }

        r.get('/crash/state', {
          schema: {
            tags,
            summary:
              'The current crash round (never its crash point before the crash); your bet when logged in',
            querystring: ZLangQuery,
            response: responses(ZCrashState),
          },
          handler: async (request) => ok(request.lang, await engine.state(await optionalPlayer(request))),
        });

        r.get('/crash/history', {
          schema: {
            tags,
            summary: 'Last crashed rounds with crash points, round hashes and the chain to verify them',
            querystring: ZCrashHistoryQuery,
            response: responses(ZCrashHistoryResponse),
          },
          handler: async (request) => {
            const rows = await crashedHistory(db, request.query.limit);
            return ok(request.lang, {
              list: rows.map((row) => ({
                round_id: row.roundId.toString(),
                chain_position: row.position,
                crash_point: formatHundredths(row.crashHundredths),
                round_hash: row.roundHash,
                hash_commitment: row.hashCommitment,
                terminating_hash: row.terminatingHash,
                public_salt: row.publicSalt,
                chain_length: row.chainLength,
                crashed_at: new Date(row.crashedAt).toISOString(),
              })),
            });
          },
        });

        r.get('/crash/chains', {
          schema: {
            tags,
            summary:
              'Published hash chains, newest first: terminating hash and when it was committed, then the salt and the bets it was fixed from',
            querystring: ZCrashChainsQuery,
            response: responses(ZCrashChainsResponse),
          },
          handler: async (request) => {
            const chains = await listChains(db, request.query.limit);
            return ok(request.lang, { salt_seeds_max: CRASH_SALT_MAX_SEEDS, list: chains.map(chainView) });
          },
        });

        r.post('/crash/bet', {
          schema: {
            tags,
            summary: 'Bet on the current round while it takes bets (idempotency_key: placed once)',
            security,
            querystring: ZLangQuery,
            body: ZCrashBetRequest,
            response: responses(ZCrashBetResponse),
          },
          handler: async (request) => {
            const who = await player(request);
            const placed = await engine.placeBet(who, {
              amount: request.body.amount,
              autoCashout: request.body.auto_cashout,
              idempotencyKey: request.body.idempotency_key ?? randomUUID(),
              clientSeed: request.body.client_seed,
            });
            return ok(request.lang, { bet: placed.bet, balance: placed.balance });
          },
        });

        r.post('/crash/cashout', {
          schema: {
            tags,
            summary: 'Cash out your bet of a running round at the current multiplier',
            security,
            querystring: ZLangQuery,
            body: ZCrashCashoutRequest,
            response: responses(ZCrashBetResponse),
          },
          handler: async (request) => {
            // The moment the press reached the server, before anything is awaited (engine.cashOut).
            const takenAt = engine.now();
            const who = await player(request);
            const roundId = BigInt(request.body.round_id);
            if (roundId <= 0n) throw new AppError('NOT_FOUND');
            return ok(request.lang, await engine.cashOut(who, roundId, takenAt));
          },
        });
      },
      { prefix: '/api' },
    );
  },
  { name: 'crash', dependencies: ['realtime', 'session-auth'] },
);
