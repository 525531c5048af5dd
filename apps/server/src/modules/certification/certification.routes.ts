import {
  ZAdminCertificationResponse,
  ZCertificationQuery,
  ZCertificationResponse,
  ZLangQuery,
} from '@sorte/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ok, responses } from '../../http/reply.ts';
import { requirePermission } from '../admin/permissions.ts';
import { getBuildInfo } from './certification.build.ts';
import { DEFAULT_REPORT_FILE, getReport, publicFigures } from './certification.report.ts';

export type TCertificationRoutesOptions = {
  /** The web bundle this server serves (its asset manifest is hashed for the back office). */
  webDist: string;
};

/**
 * The in-house games' certification figures (issue 37): public per game for the rules panels, and
 * for the back office with the running build's commit and bundle hash (under /api).
 */
export async function certificationRoutes(app: FastifyInstance, options: TCertificationRoutesOptions) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { config } = app.services;
  const reportFile = config.CERTIFICATION_REPORT_FILE ?? DEFAULT_REPORT_FILE;

  r.get('/originals/certification', {
    schema: {
      tags: ['originals'],
      summary:
        "The latest certification figures of the in-house games (one game with ?game=): declared, enumerated and measured RTP with its 99.9 % interval, the batteries' pass counts, the commit and sizes",
      querystring: ZCertificationQuery,
      response: responses(ZCertificationResponse),
    },
    handler: async (request) =>
      ok(request.lang, publicFigures(await getReport(reportFile), request.query.game)),
  });

  r.get('/admin/certification', {
    onRequest: requirePermission('fairness.read'),
    schema: {
      tags: ['admin'],
      summary:
        "The certification report with the running build's commit and its web bundle's manifest hash, and whether the commits match",
      security: [{ bearerAuth: [] }],
      querystring: ZLangQuery,
      response: responses(ZAdminCertificationResponse),
    },
    handler: async (request) => {
      const report = await getReport(reportFile);
      const build = await getBuildInfo(config.BUILD_COMMIT, options.webDist);
      return ok(request.lang, {
        report,
        build,
        // BUILD_COMMIT may be a short hash: it matches the report's full one by its prefix.
        commit_matches: build.commit === null ? null : report.commit.startsWith(build.commit),
      });
    },
  });
}
