import { ZRegulatorFileParams, ZRegulatorReportsQuery, ZRegulatorReportsResponse } from '@sorte/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { AppError } from '../../errors.ts';
import { ok, responses } from '../../http/reply.ts';
import { operatorOf, requirePermission } from '../admin/permissions.ts';
import { findDownload, listReports } from './regulator.repo.ts';
import { reportingSite } from './regulator.service.ts';

const tags = ['admin'];
const security = [{ bearerAuth: [] }];

/** A report as the back office lists it: the manifest first, then the data files. */
function reportView(report: Awaited<ReturnType<typeof listReports>>[number]) {
  return {
    day: report.day,
    layout: report.layout,
    status: report.status,
    problems: report.problems,
    bet_records: report.betRecords,
    transaction_records: report.transactionRecords,
    built_at: report.builtAt,
    files: [
      {
        name: report.manifestName,
        kind: 'manifest' as const,
        sequence: 0,
        records: report.files.length,
        bytes: report.manifestBytes,
        sha256: report.manifestSha256,
      },
      ...report.files,
    ],
  };
}

/** Back office: the regulator's daily files of the operator's site (ADR 039). */
export async function regulatorRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const db = app.services.db;

  r.get('/admin/regulator/reports', {
    onRequest: requirePermission('finance.reports'),
    schema: {
      tags,
      summary: "The site's daily files for the regulator, newest day first, with each file's checksum",
      security,
      querystring: ZRegulatorReportsQuery,
      response: responses(ZRegulatorReportsResponse),
    },
    handler: async (request) => {
      const siteId = operatorOf(request).siteId;
      const site = await reportingSite(db, siteId);
      const reports = await listReports(db, siteId, request.query.limit ?? 31);
      return ok(request.lang, {
        reporting: site !== null,
        layout: site?.profile.layout ?? null,
        time_zone: site?.profile.timeZone ?? null,
        due_hour: site?.profile.dueHour ?? null,
        max_records_per_file: site?.profile.maxRecordsPerFile ?? null,
        legal_basis: site?.profile.legalBasis ?? null,
        list: reports.map(reportView),
      });
    },
  });

  r.get('/admin/regulator/reports/:day/files/:name', {
    onRequest: requirePermission('finance.reports'),
    schema: {
      tags,
      summary: 'Downloads one file of a day (a data file or the manifest), its SHA-256 in x-content-sha256',
      security,
      params: ZRegulatorFileParams,
    },
    handler: async (request, reply) => {
      const { day, name } = request.params;
      const file = await findDownload(db, operatorOf(request).siteId, day, name);
      if (!file) throw new AppError('NOT_FOUND');
      return reply
        .code(200)
        .header('cache-control', 'no-store')
        .header('content-disposition', `attachment; filename="${name}"`)
        .header('x-content-sha256', file.sha256)
        .header('x-report-status', file.status)
        .type(
          name.endsWith('.json') ? 'application/json; charset=utf-8' : 'application/x-ndjson; charset=utf-8',
        )
        .send(file.content);
    },
  });
}
