import {
  ZAdminKycDecisionRequest,
  ZAdminKycDocumentParams,
  ZAdminKycReviewsResponse,
  ZAdminKycSessionParams,
  ZLangQuery,
} from '@sorte/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok, responses } from '../../http/reply.ts';
import { operatorOf, requirePermission } from '../admin/permissions.ts';
import { decideReview, listReviews, openDocument } from './kyc-review.ts';

const tags = ['admin'];
const security = [{ bearerAuth: [] }];

const ZDecisionResponse = z.object({
  session_id: z.string(),
  status: z.enum(['approved', 'rejected']),
  sessions_ended: z.number().int().describe("the player's sessions a rejection ended"),
});

/** The back office's verification queue: sessions in manual review, their documents, the decision. */
export async function kycReviewRoutes(app: FastifyInstance) {
  const db = app.services.db;
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/admin/kyc/reviews', {
    onRequest: requirePermission('players.read'),
    schema: {
      tags,
      security,
      summary:
        'Identity verifications the provider sent to manual review, oldest first (CPF and birth date masked without players.pii)',
      querystring: ZLangQuery,
      response: responses(ZAdminKycReviewsResponse),
    },
    handler: async (request) => ok(request.lang, await listReviews(db, operatorOf(request))),
  });

  r.get('/admin/kyc/documents/:document_id', {
    onRequest: requirePermission('kyc.documents'),
    schema: {
      tags,
      security,
      summary: 'One identity document of a session in review, decrypted (each opening is in the audit log)',
      params: ZAdminKycDocumentParams,
      querystring: ZLangQuery,
    },
    handler: async (request, reply) => {
      const document = await openDocument(
        db,
        app.kycVault,
        operatorOf(request),
        BigInt(request.params.document_id),
      );
      return reply
        .code(200)
        .header('cache-control', 'no-store')
        .header('content-disposition', 'inline')
        .header('x-content-type-options', 'nosniff')
        .type(document.contentType)
        .send(document.bytes);
    },
  });

  r.post('/admin/kyc/reviews/:session_id/decision', {
    onRequest: requirePermission('kyc.documents'),
    schema: {
      tags,
      security,
      summary:
        'Approve or reject a verification in manual review, with a reason; a rejection ends every session of the player',
      params: ZAdminKycSessionParams,
      querystring: ZLangQuery,
      body: ZAdminKycDecisionRequest,
      response: responses(ZDecisionResponse),
    },
    handler: async (request) =>
      ok(
        request.lang,
        await decideReview(
          db,
          operatorOf(request),
          BigInt(request.params.session_id),
          request.body.decision,
          request.body.reason,
        ),
      ),
  });
}
