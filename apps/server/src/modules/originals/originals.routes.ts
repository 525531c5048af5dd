import {
  formatMinor,
  IDEMPOTENCY_KEY_PATTERN,
  INSTANT_ORIGINALS,
  STEPPED_ORIGINALS,
  type TInstantOriginal,
  ZActiveRoundResponse,
  ZBetResponse,
  ZBingoBet,
  ZClientSeedRequest,
  ZDemoSessionResponse,
  ZDiceBet,
  ZGameRecordRequest,
  ZGameRecordResponse,
  ZHiloCall,
  ZHiloStart,
  ZKenoBet,
  ZLangQuery,
  ZLaunchRequest,
  ZLaunchResponse,
  ZLimboBet,
  ZMinesPick,
  ZMinesStart,
  ZOriginalsRulesResponse,
  ZPlinkoBet,
  ZRotateRequest,
  ZRotateResponse,
  ZRouletteBet,
  ZRound,
  ZRoundAction,
  ZRoundDetailsRequest,
  ZSeedHistoryQuery,
  ZSeedHistoryResponse,
  ZSeedPairView,
  ZSlotBet,
} from '@sorte/contract';
import { GAME_RULES } from '@sorte/fairness';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { periodStart, siteTimeZone } from '../../core/periods.ts';
import { AppError } from '../../errors.ts';
import { ok, responses } from '../../http/reply.ts';
import { memberOf } from '../../plugins/session-auth.ts';
import { formatRtp } from '../games/games.service.ts';
import { getRoundDetails, listGameRecord } from '../records/game-record.service.ts';
import { placeInstantBetGrouped, startSteppedRoundGrouped } from './bet-group.ts';
import { createDemoSession, requireDemoPlayer } from './demo.service.ts';
import { getSeeds, rotate, seedHistory } from './fairness.service.ts';
import { launchGame } from './launch.service.ts';
import { paytableOf, type TBetBodies } from './originals.games.ts';
import type { TPlayer } from './originals.repo.ts';
import { getActiveRound, idempotencyKeyOf } from './originals.service.ts';
import { stepGrouped } from './step-group.ts';

const tags = ['originals'];
const security = [{ bearerAuth: [] }];

const INSTANT_BODIES = {
  dice: ZDiceBet,
  limbo: ZLimboBet,
  plinko: ZPlinkoBet,
  keno: ZKenoBet,
  roulette: ZRouletteBet,
  slot: ZSlotBet,
  bingo: ZBingoBet,
} as const satisfies Record<TInstantOriginal, unknown>;

/** RTP as the catalogue shows it: percent with two decimals, rounded to the basis point. */
function rtpText(rtp: number): string {
  return formatRtp(Math.round(rtp * 10_000));
}

function headerKey(request: FastifyRequest): string | undefined {
  const value = request.headers['idempotency-key'];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !IDEMPOTENCY_KEY_PATTERN.test(value)) {
    throw new AppError('VALIDATION_FAILED', {
      messageKey: 'validation.idempotency_key',
      fieldErrors: { idempotency_key: 'validation.idempotency_key' },
    });
  }
  return value;
}

/**
 * In-house games (bets, stepped rounds, rules), demo sessions, provably-fair seeds, the game
 * record and game launch (under /api). The player is the session's member, or the guest demo
 * session named by the X-Demo-Token header (fun money), which takes precedence when sent.
 */
export async function originalsRoutes(app: FastifyInstance) {
  const { db, readDb } = app.services;
  const r = app.withTypeProvider<ZodTypeProvider>();

  async function playerOf(request: FastifyRequest): Promise<TPlayer> {
    const demoToken = request.headers['x-demo-token'];
    if (typeof demoToken === 'string' && demoToken !== '') {
      return requireDemoPlayer(db, request.site.id, demoToken);
    }
    await app.requireMember(request);
    const { memberId, siteId } = memberOf(request);
    return { kind: 'member', siteId, memberId };
  }

  /** After a member's stake or win committed: their other screens update the balance at once. */
  function pushBalance(player: TPlayer): void {
    if (player.kind === 'member')
      void app.realtime.publishBalance(player.siteId, player.memberId, 'game_round');
  }

  r.post('/originals/demo/session', {
    schema: {
      tags,
      summary: 'Start a fun-money demo session for a guest (send its token as X-Demo-Token)',
      querystring: ZLangQuery,
      response: responses(ZDemoSessionResponse),
    },
    handler: async (request) =>
      ok(request.lang, await createDemoSession(db, request.site.id), 'messages.demo_mode'),
  });

  r.get('/originals/rules', {
    schema: {
      tags,
      summary: 'RTP, bet limits, max win and paytable of every in-house game',
      querystring: ZLangQuery,
      response: responses(ZOriginalsRulesResponse),
    },
    handler: async (request) =>
      ok(request.lang, {
        list: [...INSTANT_ORIGINALS, ...STEPPED_ORIGINALS].map((game) => {
          const rules = GAME_RULES[game];
          return {
            game,
            rtp: rtpText(rules.rtpMin),
            rtp_max: rtpText(rules.rtpMax),
            min_bet: formatMinor(rules.limits.minBetMinor),
            max_bet: formatMinor(rules.limits.maxBetMinor),
            max_win: formatMinor(rules.limits.maxWinMinor),
            paytable: paytableOf(game),
          };
        }),
      }),
  });

  for (const game of INSTANT_ORIGINALS) {
    r.post(`/originals/${game}/bet`, {
      schema: {
        tags,
        summary: `Place a ${game} bet (settled at once; Idempotency-Key header or idempotency_key)`,
        security,
        querystring: ZLangQuery,
        body: INSTANT_BODIES[game],
        response: responses(ZBetResponse),
      },
      handler: async (request) => {
        const player = await playerOf(request);
        const body = request.body as TBetBodies[typeof game];
        const key = idempotencyKeyOf(body.idempotency_key, headerKey(request));
        const { round, balance } = await placeInstantBetGrouped(db, player, game, body, key);
        pushBalance(player);
        return ok(request.lang, { round, balance });
      },
    });
  }

  // Stepped games start the same way: the stake is taken now, then picks/calls follow.
  const STEPPED_STARTS = {
    mines: { body: ZMinesStart, summary: 'Start a Mines round (stake taken now; open tiles, then cash out)' },
    hilo: { body: ZHiloStart, summary: 'Start a Hi-Lo round (stake taken now; the first card is dealt)' },
  } as const;
  for (const game of ['mines', 'hilo'] as const) {
    r.post(`/originals/${game}/start`, {
      schema: {
        tags,
        summary: STEPPED_STARTS[game].summary,
        security,
        querystring: ZLangQuery,
        body: STEPPED_STARTS[game].body,
        response: responses(ZBetResponse),
      },
      handler: async (request) => {
        const player = await playerOf(request);
        const body = request.body as { idempotency_key?: string | undefined } & Record<string, unknown>;
        const key = idempotencyKeyOf(body.idempotency_key, headerKey(request));
        const { round, balance } = await startSteppedRoundGrouped(db, player, game, request.body, key);
        pushBalance(player);
        return ok(request.lang, { round, balance });
      },
    });
  }

  r.post('/originals/mines/pick', {
    schema: {
      tags,
      summary: 'Open a tile (0–24); a mine ends the round',
      security,
      querystring: ZLangQuery,
      body: ZMinesPick,
      response: responses(ZBetResponse),
    },
    handler: async (request) => {
      const player = await playerOf(request);
      const { round, balance } = await stepGrouped(db, player, 'mines', BigInt(request.body.round_id), {
        kind: 'pick',
        tile: request.body.tile,
      });
      if (round.status === 'settled') pushBalance(player);
      return ok(request.lang, { round, balance });
    },
  });

  r.post('/originals/hilo/call', {
    schema: {
      tags,
      summary: 'Call higher, lower or skip; a wrong call ends the round',
      security,
      querystring: ZLangQuery,
      body: ZHiloCall,
      response: responses(ZBetResponse),
    },
    handler: async (request) => {
      const player = await playerOf(request);
      const { round, balance } = await stepGrouped(db, player, 'hilo', BigInt(request.body.round_id), {
        kind: 'call',
        call: request.body.call,
      });
      if (round.status === 'settled') pushBalance(player);
      return ok(request.lang, { round, balance });
    },
  });

  for (const game of STEPPED_ORIGINALS) {
    r.post(`/originals/${game}/cashout`, {
      schema: {
        tags,
        summary: `Cash a ${game} round out (once; a second cash-out is ROUND_NOT_ACTIVE)`,
        security,
        querystring: ZLangQuery,
        body: ZRoundAction,
        response: responses(ZBetResponse),
      },
      handler: async (request) => {
        const player = await playerOf(request);
        const { round, balance } = await stepGrouped(db, player, game, BigInt(request.body.round_id), {
          kind: 'cashout',
        });
        pushBalance(player);
        return ok(request.lang, { round, balance });
      },
    });

    r.get(`/originals/${game}/active`, {
      schema: {
        tags,
        summary: `The player's unfinished ${game} round, if any (to resume after a reload)`,
        security,
        querystring: ZLangQuery,
        response: responses(ZActiveRoundResponse),
      },
      handler: async (request) => ok(request.lang, await getActiveRound(db, await playerOf(request), game)),
    });
  }

  // Fairness -------------------------------------------------------------------------------------

  r.get('/fairness/seeds', {
    schema: {
      tags: ['fairness'],
      summary: 'The active seed pair: server seed hash (commitment), client seed, next nonce',
      security,
      querystring: ZLangQuery,
      response: responses(ZSeedPairView),
    },
    handler: async (request) => ok(request.lang, await getSeeds(db, await playerOf(request))),
  });

  // Both rotate the pair (the old server seed is revealed); they differ in what the player asked.
  const ROTATIONS = [
    {
      path: '/fairness/client-seed',
      summary: 'Set a new client seed (rotates the pair: the old server seed is revealed)',
      body: ZClientSeedRequest,
      message: 'messages.client_seed_updated',
    },
    {
      path: '/fairness/rotate',
      summary: 'Reveal the server seed and commit a new one (optionally with a new client seed)',
      body: ZRotateRequest,
      message: 'messages.seeds_rotated',
    },
  ] as const;
  for (const rotation of ROTATIONS) {
    r.post(rotation.path, {
      schema: {
        tags: ['fairness'],
        summary: rotation.summary,
        security,
        querystring: ZLangQuery,
        body: rotation.body,
        response: responses(ZRotateResponse),
      },
      handler: async (request) => {
        const { client_seed: clientSeed } = request.body as { client_seed?: string | undefined };
        const result = await rotate(db, await playerOf(request), clientSeed);
        return ok(request.lang, result, rotation.message);
      },
    });
  }

  r.get('/fairness/history', {
    schema: {
      tags: ['fairness'],
      summary: 'Revealed seed pairs, newest first',
      security,
      querystring: ZSeedHistoryQuery,
      response: responses(ZSeedHistoryResponse),
    },
    handler: async (request) =>
      ok(
        request.lang,
        await seedHistory(db, await playerOf(request), request.query.page, request.query.page_size),
      ),
  });

  // Game record --------------------------------------------------------------------------------

  r.post('/game/record', {
    schema: {
      tags: ['games'],
      summary:
        'Game record: brand, name, bet time, bet amount, win/loss (period today/last_3_days/last_7_days/all, keyset paging)',
      security,
      querystring: ZLangQuery,
      body: ZGameRecordRequest,
      response: responses(ZGameRecordResponse),
    },
    handler: async (request) => {
      const player = await playerOf(request);
      const body = request.body;
      const record = await listGameRecord(readDb, player, {
        since: periodStart(body.period, new Date(), siteTimeZone(request.site)),
        game: 'game' in body ? body.game : undefined,
        beforeId: 'before_id' in body && body.before_id ? BigInt(body.before_id) : undefined,
        afterId: 'after_id' in body && body.after_id ? BigInt(body.after_id) : undefined,
        pageSize: body.page_size,
      });
      return ok(request.lang, record);
    },
  });

  r.post('/game/record/details', {
    schema: {
      tags: ['games'],
      summary: 'One round in full: stake, outcome, payout, seeds and nonce (for the verifier)',
      security,
      querystring: ZLangQuery,
      body: ZRoundDetailsRequest,
      response: responses(ZRound),
    },
    handler: async (request) =>
      ok(request.lang, await getRoundDetails(db, await playerOf(request), BigInt(request.body.id))),
  });

  // Launch ---------------------------------------------------------------------------------------

  r.post('/day7/day7LoginV2', {
    schema: {
      tags: ['games'],
      summary: 'Launch URL of a game for the session (guests: demo mode for in-house games)',
      querystring: ZLangQuery,
      body: ZLaunchRequest,
      response: responses(ZLaunchResponse),
    },
    handler: async (request) => {
      let memberId: bigint | null = null;
      if (request.headers.authorization) {
        await app.requireMember(request);
        memberId = memberOf(request).memberId;
      }
      const launch = await launchGame(db, request.site.id, memberId, request.body);
      return ok(request.lang, launch, launch.mode === 'demo' ? 'messages.demo_mode' : 'messages.ok');
    },
  });
}
