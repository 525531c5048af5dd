import {
  ZAmlCaseDetail,
  ZComplianceAlertsResponse,
  ZComplianceAssignBody,
  ZComplianceCaseParams,
  ZComplianceCasesResponse,
  ZComplianceDecideBody,
  ZComplianceExportBody,
  ZComplianceListQuery,
  ZComplianceNoteBody,
  ZComplianceReportParams,
  ZComplianceReportsResponse,
} from '@sorte/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok, responses } from '../../http/reply.ts';
import { operatorOf, requirePermission } from '../admin/permissions.ts';
import { addNote, assignCase, caseDetail, decide, holdCase, listAlerts, listCases } from './aml.cases.ts';
import { listenForScreening } from './aml.outbox.ts';
import { downloadReport, exportYear, listReports } from './aml.reports.ts';

const tags = ['admin'];
const security = [{ bearerAuth: [] }];
const ZDone = z.object({ report_id: z.number().int().nullable().optional() });

/** Back office: AML monitoring (ADR 040), and the outbox listeners of the money and session events. */
export async function complianceRoutes(app: FastifyInstance) {
  listenForScreening();
  const r = app.withTypeProvider<ZodTypeProvider>();
  const db = app.services.db;
  const read = requirePermission('compliance.read');

  r.get('/admin/compliance/alerts', {
    onRequest: read,
    schema: {
      tags,
      security,
      summary: 'AML alerts of the site, newest first',
      querystring: ZComplianceListQuery,
      response: responses(ZComplianceAlertsResponse),
    },
    handler: async (request) =>
      ok(request.lang, await listAlerts(db, operatorOf(request).siteId, request.query)),
  });

  r.get('/admin/compliance/cases', {
    onRequest: read,
    schema: {
      tags,
      security,
      summary: "AML cases of the site (a player's alerts gathered), latest activity first",
      querystring: ZComplianceListQuery,
      response: responses(ZComplianceCasesResponse),
    },
    handler: async (request) =>
      ok(request.lang, await listCases(db, operatorOf(request).siteId, request.query)),
  });

  r.get('/admin/compliance/cases/:id', {
    onRequest: read,
    schema: {
      tags,
      security,
      summary: "A case with its alerts, notes and the player's timeline",
      params: ZComplianceCaseParams,
      response: responses(ZAmlCaseDetail),
    },
    handler: async (request) =>
      ok(request.lang, await caseDetail(db, operatorOf(request), BigInt(request.params.id))),
  });

  await caseActionRoutes(app);
  await filesRoutes(app);
}

/** The stored files: list, the yearly exports, download. */
async function filesRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const db = app.services.db;
  const read = requirePermission('compliance.read');
  const manage = requirePermission('compliance.manage');

  r.get('/admin/compliance/reports', {
    onRequest: read,
    schema: {
      tags,
      security,
      summary: 'The COAF communications and yearly files of the site',
      response: responses(ZComplianceReportsResponse),
    },
    handler: async (request) => ok(request.lang, await listReports(db, operatorOf(request).siteId)),
  });

  r.post('/admin/compliance/exports', {
    onRequest: manage,
    schema: {
      tags,
      security,
      summary: "Writes a year's non-occurrence declaration or annual report",
      body: ZComplianceExportBody,
      response: responses(ZDone),
    },
    handler: async (request) =>
      ok(request.lang, await exportYear(db, operatorOf(request), request.body.kind, request.body.year)),
  });

  r.get('/admin/compliance/reports/:id/file', {
    onRequest: read,
    schema: {
      tags,
      security,
      summary: 'Downloads a stored file (JSON), its SHA-256 in x-content-sha256',
      params: ZComplianceReportParams,
    },
    handler: async (request, reply) => {
      const file = await downloadReport(db, operatorOf(request), BigInt(request.params.id));
      return reply
        .code(200)
        .header('cache-control', 'no-store')
        .header('content-disposition', `attachment; filename="${file.fileName}"`)
        .header('x-content-sha256', file.sha256)
        .type('application/json; charset=utf-8')
        .send(file.content);
    },
  });
}

/** What compliance.manage does to a case: assign, note (then hold and decide). */
async function caseActionRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const db = app.services.db;
  const manage = requirePermission('compliance.manage');

  r.post('/admin/compliance/cases/:id/assign', {
    onRequest: manage,
    schema: {
      tags,
      security,
      summary: 'Assigns the case to a compliance operator (null: nobody)',
      params: ZComplianceCaseParams,
      body: ZComplianceAssignBody,
      response: responses(ZDone),
    },
    handler: async (request) => {
      const { operator_id: assignee } = request.body;
      await assignCase(
        db,
        operatorOf(request),
        BigInt(request.params.id),
        assignee === null ? null : BigInt(assignee),
      );
      return ok(request.lang, {});
    },
  });

  r.post('/admin/compliance/cases/:id/notes', {
    onRequest: manage,
    schema: {
      tags,
      security,
      summary: 'Adds a note to the case',
      params: ZComplianceCaseParams,
      body: ZComplianceNoteBody,
      response: responses(ZDone),
    },
    handler: async (request) => {
      await addNote(db, operatorOf(request), BigInt(request.params.id), request.body.note);
      return ok(request.lang, {});
    },
  });
  await decisionRoutes(app);
}

/** A case's hold and decision (compliance.manage). */
async function decisionRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const db = app.services.db;
  const manage = requirePermission('compliance.manage');

  r.post('/admin/compliance/cases/:id/hold', {
    onRequest: manage,
    schema: {
      tags,
      security,
      summary: "Holds the player's withdrawals and ends their sessions",
      params: ZComplianceCaseParams,
      response: responses(ZDone),
    },
    handler: async (request) => {
      await holdCase(db, operatorOf(request), BigInt(request.params.id));
      return ok(request.lang, {});
    },
  });

  r.post('/admin/compliance/cases/:id/decide', {
    onRequest: manage,
    schema: {
      tags,
      security,
      summary: 'Closes the case with a reason, or reports it to COAF (the file is stored, withdrawals held)',
      params: ZComplianceCaseParams,
      body: ZComplianceDecideBody,
      response: responses(ZDone),
    },
    handler: async (request) => {
      const answer = await decide(
        db,
        operatorOf(request),
        BigInt(request.params.id),
        request.body.decision,
        request.body.reason,
      );
      return ok(request.lang, answer);
    },
  });
}
