import { ZAcceptTermsRequest, ZLangQuery, ZTermsStatus } from '@sorte/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ok, responses } from '../../http/reply.ts';
import { memberOf } from '../../plugins/session-auth.ts';
import { acceptTerms, termsStatus } from './terms.service.ts';

const tags = ['terms'];
const security = [{ bearerAuth: [] }];

/** The player's side of versioned terms: what is in force, pending or announced, and accepting. */
export async function termsRoutes(app: FastifyInstance) {
  const { services } = app;
  const r = app.withTypeProvider<ZodTypeProvider>();
  const member = { onRequest: app.requireMember };

  r.get('/terms/status', {
    ...member,
    schema: {
      tags,
      security,
      summary: 'The terms version in force, the one awaiting my acceptance and the next announced one',
      querystring: ZLangQuery,
      response: responses(ZTermsStatus),
    },
    handler: async (request) => {
      const { memberId } = memberOf(request);
      return ok(request.lang, await termsStatus(services.db, request.site.id, memberId));
    },
  });

  r.post('/terms/accept', {
    ...member,
    schema: {
      tags,
      security,
      summary: 'Accept the terms version awaiting my acceptance (bets and deposits open again)',
      querystring: ZLangQuery,
      body: ZAcceptTermsRequest,
      response: responses(ZTermsStatus),
    },
    handler: async (request) => {
      const { memberId } = memberOf(request);
      await acceptTerms(services.db, memberId, request.body.version);
      return ok(
        request.lang,
        await termsStatus(services.db, request.site.id, memberId),
        'messages.terms_accepted',
      );
    },
  });
}
