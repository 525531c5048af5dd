import {
  ZBankCardAddRequest,
  ZBankCardAddResponse,
  ZBankCardDeleteRequest,
  ZBankCardDeleteResponse,
  ZBankCardListResponse,
  ZLangQuery,
} from '@sorte/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ok, responses } from '../../http/reply.ts';
import { memberOf } from '../../plugins/session-auth.ts';
import { addBankCard, deleteBankCard, listBankCards } from './bank-cards.service.ts';

const tags = ['bank cards'];
const bearer = [{ bearerAuth: [] }];

/** GET /api/member/bank, POST /api/member/bank/add, POST /api/member/bank/delete (the caller's own cards). */
export async function bankCardsRoutes(app: FastifyInstance) {
  const { services } = app;
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/member/bank', {
    onRequest: app.requireMember,
    schema: {
      tags,
      summary: "The caller's bank cards (PIX keys), default first",
      security: bearer,
      querystring: ZLangQuery,
      response: responses(ZBankCardListResponse),
    },
    handler: async (request) =>
      ok(request.lang, await listBankCards(services.db, request.site, memberOf(request).memberId)),
  });

  r.post('/member/bank/add', {
    onRequest: app.requireMember,
    schema: {
      tags,
      summary: 'Add a bank card: PIX key of type CPF, CNPJ, EVP, PHONE or EMAIL, payee and CPF',
      description:
        'Keys are checked against their type (check digits, UUID v4, Brazilian mobile, email). At most ' +
        '5 cards; a key already on an active card of the site is refused. On br sites the CPF must be ' +
        "the member's own (the first card binds it) and CNPJ keys are refused.",
      security: bearer,
      querystring: ZLangQuery,
      body: ZBankCardAddRequest,
      response: responses(ZBankCardAddResponse),
    },
    handler: async (request) => {
      const card = await addBankCard(services.db, request.site, memberOf(request).memberId, request.body);
      return ok(request.lang, card, 'messages.bank_card_added');
    },
  });

  r.post('/member/bank/delete', {
    onRequest: app.requireMember,
    schema: {
      tags,
      summary: "Remove one of the caller's bank cards (refused while a withdrawal to it is open)",
      security: bearer,
      querystring: ZLangQuery,
      body: ZBankCardDeleteRequest,
      response: responses(ZBankCardDeleteResponse),
    },
    handler: async (request) => {
      const removed = await deleteBankCard(
        services.db,
        request.site,
        memberOf(request).memberId,
        BigInt(request.body.id),
      );
      return ok(request.lang, removed, 'messages.bank_card_deleted');
    },
  });
}
