import {
  AGGREGATOR_SIGNATURE_HEADER,
  type TWalletCall,
  type TWalletResponse,
  WALLET_CALLS,
  ZLangQuery,
  ZProviderLaunchRequest,
  ZProviderLaunchResponse,
  ZWalletBalanceRequest,
  ZWalletBetRequest,
  ZWalletRollbackRequest,
  ZWalletWinRequest,
} from '@sorte/contract';
import { verifyBody } from '@sorte/provider-protocol';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok, responses } from '../../http/reply.ts';
import { memberOf } from '../../plugins/session-auth.ts';
import { walletBet, walletRollback, walletWin } from './providers.bet-group.ts';
import { openProviderGame } from './providers.service.ts';
import { type TWalletContext, walletBalance } from './providers.wallet.ts';

const ZWalletParams = z.object({ provider: z.string().max(64), call: z.enum(WALLET_CALLS) });

type TRawBody = { raw: string };

/** Validates the body of one wallet call against its own schema and runs it. */
function runCall(context: TWalletContext, call: TWalletCall, json: unknown): Promise<TWalletResponse> {
  const wrongTypes = Promise.resolve<TWalletResponse>({ status: 'RS_ERROR_WRONG_TYPES' });
  switch (call) {
    case 'balance': {
      const body = ZWalletBalanceRequest.safeParse(json);
      return body.success ? walletBalance(context, body.data) : wrongTypes;
    }
    case 'bet': {
      const body = ZWalletBetRequest.safeParse(json);
      return body.success ? walletBet(context, body.data) : wrongTypes;
    }
    case 'win': {
      const body = ZWalletWinRequest.safeParse(json);
      return body.success ? walletWin(context, body.data) : wrongTypes;
    }
    case 'rollback': {
      const body = ZWalletRollbackRequest.safeParse(json);
      return body.success ? walletRollback(context, body.data) : wrongTypes;
    }
  }
}

/**
 * The seamless-wallet endpoints the aggregator calls, and the player's launch of a provider game.
 * Wallet calls live in their own encapsulated context: their JSON is kept as the raw text (the
 * signature covers the exact bytes), they answer the seamless-wallet shape instead of our envelope
 * (HTTP 200 with an RS_* status), and they are exempt from the per-address rate limit because one
 * aggregator sends every player's rounds from a few addresses and is authenticated by its HMAC.
 */
export async function providersRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app.services;
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post('/providers/launch', {
    schema: {
      tags: ['games'],
      summary: "A third-party game's page at its provider (members: real money; guests: fun money)",
      querystring: ZLangQuery,
      body: ZProviderLaunchRequest,
      response: responses(ZProviderLaunchResponse),
    },
    handler: async (request) => {
      let memberId: bigint | null = null;
      if (request.headers.authorization) {
        await app.requireMember(request);
        memberId = memberOf(request).memberId;
      }
      const launch = await openProviderGame(db, app.aggregator, {
        siteId: request.site.id,
        memberId,
        lang: request.lang,
        body: request.body,
      });
      return ok(request.lang, launch);
    },
  });

  await app.register(async (wallet) => {
    wallet.removeContentTypeParser(['application/json']);
    wallet.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
      done(null, { raw: typeof body === 'string' ? body : body.toString('utf8') } satisfies TRawBody);
    });

    wallet.post('/providers/:provider/wallet/:call', {
      schema: { hide: true },
      config: { rateLimit: false },
      handler: async (request, reply): Promise<TWalletResponse> => {
        reply.code(200);
        const params = ZWalletParams.safeParse(request.params);
        const connection = app.aggregator.attached;
        const raw = (request.body as TRawBody | undefined)?.raw ?? '';
        if (
          !params.success ||
          !connection ||
          connection.id !== params.data.provider ||
          !verifyBody(connection.secret, raw, request.headers[AGGREGATOR_SIGNATURE_HEADER])
        ) {
          return { status: 'RS_ERROR_INVALID_SIGNATURE' };
        }
        let json: unknown;
        try {
          json = JSON.parse(raw);
        } catch {
          return { status: 'RS_ERROR_WRONG_TYPES' };
        }
        try {
          const onMoved = (member: { siteId: bigint; memberId: bigint }) => {
            void app.realtime.publishBalance(member.siteId, member.memberId, `provider_${params.data.call}`);
          };
          return await runCall({ db, aggregator: connection.id, onMoved }, params.data.call, json);
        } catch (error) {
          request.log.error({ err: error, call: params.data.call }, 'provider wallet call failed');
          return { status: 'RS_ERROR_UNKNOWN' };
        }
      },
    });
  });
}
