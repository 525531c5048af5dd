import { recordOperatorAction, type TOperatorAuth } from '../../core/audit.ts';
import type { Db, Executor } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import {
  annualReport,
  coafCommunication,
  nonOccurrenceDeclaration,
  type TEntity,
  type TFile,
} from './aml.files.ts';
import { json, reportOf, str, TIMELINE_LIMIT } from './aml.rows.ts';
import {
  countCoafReports,
  findAlerts,
  findPlayer,
  findProfileRules,
  findReportFile,
  findReports,
  findSite,
  findTimeline,
  findYearFigures,
  insertReport,
} from './aml-cases.repo.ts';

/**
 * The files compliance stores (ADR 040): a case's COAF communication, the yearly non-occurrence
 * declaration and annual report; listed, and downloaded with an audit entry.
 */

export async function listReports(db: Db, siteId: bigint) {
  return { list: (await findReports(db, siteId)).map(reportOf) };
}

async function entityOf(tx: Executor, siteId: bigint): Promise<TEntity> {
  const site = await findSite(tx, siteId);
  return {
    site_code: String(site.code),
    site_name: String(site.name),
    jurisdiction: String(site.jurisdiction),
  };
}

/** The COAF communication of a case: the player, every operation of the timeline, the rules hit. */
export async function coafFileOf(
  tx: Executor,
  operator: TOperatorAuth,
  caseId: bigint,
  memberId: bigint,
  narrative: string,
) {
  const [player, alerts, timeline] = await Promise.all([
    findPlayer(tx, operator.siteId, memberId),
    findAlerts(tx, operator.siteId, { caseId, limit: 500 }),
    findTimeline(tx, memberId, TIMELINE_LIMIT),
  ]);
  if (!player) throw new AppError('NOT_FOUND');
  return coafCommunication({
    entity: await entityOf(tx, operator.siteId),
    caseId,
    subject: {
      member_id: String(player.member_id),
      username: String(player.username),
      name: String(player.realname),
      cpf: str(player.cpf),
      birth_date: str(player.birth_date),
      pep: player.pep === true,
    },
    operations: timeline
      .filter((t) => t.kind !== 'login')
      .map((t) => ({
        at: String(t.at),
        kind: String(t.kind),
        amount_minor: str(t.amount_minor),
        detail: String(t.detail),
      })),
    reasons: alerts.map((a) => ({
      rule: String(a.rule),
      legal_basis: String(a.legal_basis),
      amount_minor: String(a.amount_minor),
      event_at: String(a.event_at),
      evidence: json(a.evidence),
    })),
    narrative,
    operator: operator.username,
    at: new Date(),
  });
}

export async function storeFile(
  tx: Executor,
  operator: TOperatorAuth,
  kind: 'coaf' | 'non_occurrence' | 'annual',
  year: number,
  caseId: bigint | null,
  file: TFile,
): Promise<bigint> {
  return insertReport(tx, {
    siteId: operator.siteId,
    kind,
    year,
    caseId,
    ...file,
    operatorId: operator.operatorId,
  });
}

/**
 * The yearly files: the non-occurrence declaration (refused when a COAF communication was made
 * that year) or the annual report. Each is stored, audited and downloadable.
 */
export async function exportYear(
  db: Db,
  operator: TOperatorAuth,
  kind: 'non_occurrence' | 'annual',
  year: number,
): Promise<{ report_id: number }> {
  return db.transaction(async (tx) => {
    const entity = await entityOf(tx, operator.siteId);
    let file: TFile;
    if (kind === 'non_occurrence') {
      if ((await countCoafReports(tx, operator.siteId, year)) > 0) {
        throw new AppError('COMPLIANCE_REPORTED_THIS_YEAR', { params: { year } });
      }
      file = nonOccurrenceDeclaration(entity, year, operator.username, new Date());
    } else {
      const figures = await findYearFigures(tx, operator.siteId, year);
      const rules = (await findProfileRules(tx, entity.jurisdiction)).map((r) => ({
        rule: String(r.rule),
        legal_basis: String(r.legal_basis),
        params: json(r.params),
        enabled: r.enabled === true,
      }));
      const reports = await countCoafReports(tx, operator.siteId, year);
      const parsed = {
        ...figures,
        alerts_per_rule: json(figures.alerts_per_rule),
        coaf_communications: reports,
      };
      file = annualReport(entity, year, parsed, rules, operator.username, new Date());
    }
    const id = await storeFile(tx, operator, kind, year, null, file);
    await recordOperatorAction(
      tx,
      operator,
      `compliance.export.${kind}`,
      { entity: 'aml_report', entityId: id.toString() },
      null,
      { year, file_name: file.fileName, sha256: file.sha256 },
    );
    return { report_id: Number(id) };
  });
}

/** A stored file of the site, its download audited (who read a COAF communication is kept). */
export async function downloadReport(db: Db, operator: TOperatorAuth, reportId: bigint) {
  return db.transaction(async (tx) => {
    const file = await findReportFile(tx, operator.siteId, reportId);
    if (!file) throw new AppError('NOT_FOUND');
    await recordOperatorAction(
      tx,
      operator,
      'compliance.download',
      { entity: 'aml_report', entityId: reportId.toString() },
      null,
      { file_name: file.fileName },
    );
    return file;
  });
}
