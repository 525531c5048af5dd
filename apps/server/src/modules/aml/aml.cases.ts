import type { TAmlAlert, TAmlCaseDetail, TAmlCaseRow, TAmlReportRow, TAmlRule } from '@sorte/contract';
import { recordOperatorAction, type TOperatorAuth } from '../../core/audit.ts';
import { maskCpf } from '../../core/pii-masks.ts';
import type { Db, Executor } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import { roleCan } from '../admin/permissions.ts';
import { seesPii } from '../admin/pii.ts';
import { forceOffline } from '../sessions/sessions.service.ts';
import {
  annualReport,
  coafCommunication,
  nonOccurrenceDeclaration,
  type TEntity,
  type TFile,
} from './aml.files.ts';
import {
  countCoafReports,
  decideCase,
  deleteHold,
  findAlerts,
  findBetSummary,
  findCase,
  findCases,
  findDevices,
  findKycChecks,
  findNotes,
  findPlayer,
  findProfileRules,
  findReportFile,
  findReports,
  findSite,
  findTimeline,
  findYearFigures,
  insertHold,
  insertNote,
  insertReport,
  lockCase,
  operatorOfSite,
  setAssignee,
} from './aml-cases.repo.ts';

/**
 * The compliance officer's work on cases (ADR 040): read alerts and cases, a case with the
 * player's timeline, assign, note, hold, decide (close with a reason, or report to COAF), and the
 * yearly files. Every change is one transaction with its audit entry. Nothing here reaches the
 * player: a hold keeps their withdrawals in the ordinary review and ends their sessions.
 */

type TRow = Record<string, unknown>;
const str = (value: unknown) => (value === null || value === undefined ? null : String(value));
const json = (value: unknown) =>
  (typeof value === 'string' ? JSON.parse(value) : value) as Record<string, unknown>;
const TIMELINE_LIMIT = 100;
const BETS_SINCE_DAYS = 90;

function alertOf(row: TRow): TAmlAlert {
  return {
    id: Number(row.id),
    case_id: Number(row.case_id),
    member_id: Number(row.member_id),
    username: String(row.username),
    rule: row.rule as TAmlRule,
    amount_minor: String(row.amount_minor),
    evidence: json(row.evidence),
    legal_basis: String(row.legal_basis),
    event_at: String(row.event_at),
    created_at: String(row.created_at),
  };
}

function caseOf(row: TRow): TAmlCaseRow {
  return {
    id: Number(row.id),
    member_id: Number(row.member_id),
    username: String(row.username),
    status: row.status as TAmlCaseRow['status'],
    alerts: Number(row.alerts),
    rules: (Array.isArray(row.rules) ? row.rules : []).map(String),
    amount_minor: String(row.amount_minor),
    assigned_to: str(row.assigned_to),
    held: row.held === true,
    created_at: String(row.created_at),
    updated_at: String(row.updated_at),
  };
}

function reportOf(row: TRow): TAmlReportRow {
  return {
    id: Number(row.id),
    kind: row.kind as TAmlReportRow['kind'],
    year: Number(row.year),
    case_id: row.case_id === null ? null : Number(row.case_id),
    file_name: String(row.file_name),
    sha256: String(row.sha256),
    created_by: String(row.created_by),
    created_at: String(row.created_at),
  };
}

export async function listAlerts(db: Db, siteId: bigint, query: { rule?: string; limit?: number }) {
  const rows = await findAlerts(db, siteId, {
    ...(query.rule ? { rule: query.rule } : {}),
    limit: query.limit ?? 50,
  });
  return { list: rows.map(alertOf) };
}

export async function listCases(db: Db, siteId: bigint, query: { status?: string; limit?: number }) {
  const rows = await findCases(db, siteId, {
    ...(query.status ? { status: query.status } : {}),
    limit: query.limit ?? 50,
  });
  return { list: rows.map(caseOf) };
}

export async function listReports(db: Db, siteId: bigint) {
  return { list: (await findReports(db, siteId)).map(reportOf) };
}

/** A case of the operator's site with the player's timeline; another site's case is NOT_FOUND. */
export async function caseDetail(db: Db, operator: TOperatorAuth, caseId: bigint): Promise<TAmlCaseDetail> {
  const row = await findCase(db, operator.siteId, caseId);
  if (!row) throw new AppError('NOT_FOUND');
  const memberId = BigInt(String(row.member_id));
  const since = new Date(Date.now() - BETS_SINCE_DAYS * 86_400_000);
  const [player, alerts, notes, timeline, bets, devices, kyc, reports] = await Promise.all([
    findPlayer(db, operator.siteId, memberId),
    findAlerts(db, operator.siteId, { caseId, limit: 500 }),
    findNotes(db, caseId),
    findTimeline(db, memberId, TIMELINE_LIMIT),
    findBetSummary(db, memberId, since),
    findDevices(db, operator.siteId, memberId),
    findKycChecks(db, memberId),
    findReports(db, operator.siteId, caseId),
  ]);
  if (!player) throw new AppError('NOT_FOUND');
  const cpf = str(player.cpf);
  return {
    case: {
      ...caseOf(row),
      decision_reason: str(row.decision_reason),
      decided_by: str(row.decided_by),
      decided_at: str(row.decided_at),
    },
    player: {
      member_id: Number(player.member_id),
      username: String(player.username),
      realname: String(player.realname),
      cpf: cpf && !seesPii(operator) ? maskCpf(cpf) : cpf,
      birth_date: str(player.birth_date),
      pep: player.pep === true,
      created_at: String(player.created_at),
    },
    alerts: alerts.map(alertOf),
    notes: notes.map((n) => ({
      id: Number(n.id),
      operator: String(n.operator),
      note: String(n.body),
      created_at: String(n.created_at),
    })),
    timeline: timeline.map((t) => ({
      at: String(t.at),
      kind: String(t.kind),
      amount_minor: str(t.amount_minor),
      detail: String(t.detail).trim(),
    })),
    bets: {
      count: Number(bets.count),
      staked_minor: String(bets.staked),
      won_minor: String(bets.won),
      since: since.toISOString(),
    },
    devices: devices.map((d) => ({
      kind: String(d.kind),
      value: String(d.value),
      last_seen: String(d.last_seen),
      other_accounts: Number(d.other_accounts),
    })),
    kyc: kyc.map((k) => ({
      check: String(k.check_kind),
      outcome: String(k.outcome),
      reason: str(k.reason),
      at: String(k.created_at),
    })),
    reports: reports.map((r) => ({
      id: Number(r.id),
      kind: r.kind as TAmlReportRow['kind'],
      file_name: String(r.file_name),
      created_at: String(r.created_at),
    })),
  };
}

async function lockOpenCase(tx: Executor, operator: TOperatorAuth, caseId: bigint) {
  const locked = await lockCase(tx, operator.siteId, caseId);
  if (!locked) throw new AppError('NOT_FOUND');
  return locked;
}

/** Assigns the case to an operator of the site whose role manages compliance (null: nobody). */
export async function assignCase(db: Db, operator: TOperatorAuth, caseId: bigint, assignee: bigint | null) {
  return db.transaction(async (tx) => {
    const locked = await lockOpenCase(tx, operator, caseId);
    const roles = (['owner', 'compliance'] as const).filter((role) => roleCan(role, 'compliance.manage'));
    if (assignee !== null && !(await operatorOfSite(tx, operator.siteId, assignee, roles))) {
      throw new AppError('VALIDATION_FAILED', {
        messageKey: 'validation.invalid',
        fieldErrors: { operator_id: 'validation.invalid' },
      });
    }
    await setAssignee(tx, caseId, assignee);
    await recordOperatorAction(
      tx,
      operator,
      'compliance.assign',
      { memberId: locked.memberId, entity: 'aml_case', entityId: caseId.toString() },
      { assigned_to: locked.assignedTo },
      { assigned_to: assignee?.toString() ?? null },
    );
  });
}

export async function addNote(db: Db, operator: TOperatorAuth, caseId: bigint, note: string) {
  return db.transaction(async (tx) => {
    const locked = await lockOpenCase(tx, operator, caseId);
    await insertNote(tx, caseId, operator.operatorId, note);
    await recordOperatorAction(
      tx,
      operator,
      'compliance.note',
      { memberId: locked.memberId, entity: 'aml_case', entityId: caseId.toString() },
      null,
      { note },
    );
  });
}

/**
 * Holds the player's withdrawals (none is approved; the player sees the ordinary review) and ends
 * every session of theirs in every process (the session cache hears it at commit).
 */
async function holdInTx(tx: Executor, operator: TOperatorAuth, locked: { id: bigint; memberId: bigint }) {
  const held = await insertHold(tx, {
    siteId: operator.siteId,
    memberId: locked.memberId,
    caseId: locked.id,
    operatorId: operator.operatorId,
  });
  const sessionsEnded = await forceOffline(tx, operator.siteId, locked.memberId);
  await recordOperatorAction(
    tx,
    operator,
    'compliance.hold',
    { memberId: locked.memberId, entity: 'aml_case', entityId: locked.id.toString() },
    null,
    { held_now: held, sessions_ended: sessionsEnded },
  );
}

export async function holdCase(db: Db, operator: TOperatorAuth, caseId: bigint) {
  return db.transaction(async (tx) => {
    const locked = await lockOpenCase(tx, operator, caseId);
    if (locked.status !== 'open') throw new AppError('COMPLIANCE_CASE_DECIDED');
    await holdInTx(tx, operator, locked);
  });
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
async function coafFileOf(
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

/**
 * Decides an open case: `close` (nothing to report; a hold of this case is lifted) or `report`
 * (the COAF communication is written and stored, and the player's withdrawals are held).
 */
export async function decide(
  db: Db,
  operator: TOperatorAuth,
  caseId: bigint,
  decision: 'close' | 'report',
  reason: string,
): Promise<{ report_id: number | null }> {
  return db.transaction(async (tx) => {
    const locked = await lockOpenCase(tx, operator, caseId);
    if (locked.status !== 'open') throw new AppError('COMPLIANCE_CASE_DECIDED');
    let reportId: bigint | null = null;
    if (decision === 'report') {
      const file = await coafFileOf(tx, operator, caseId, locked.memberId, reason);
      reportId = await storeFile(tx, operator, 'coaf', new Date().getUTCFullYear(), caseId, file);
      await holdInTx(tx, operator, locked);
    } else {
      await deleteHold(tx, locked.memberId, caseId);
    }
    await decideCase(tx, caseId, {
      status: decision === 'report' ? 'reported' : 'closed',
      reason,
      operatorId: operator.operatorId,
    });
    await recordOperatorAction(
      tx,
      operator,
      decision === 'report' ? 'compliance.report' : 'compliance.close',
      { memberId: locked.memberId, entity: 'aml_case', entityId: caseId.toString() },
      { status: locked.status },
      {
        status: decision === 'report' ? 'reported' : 'closed',
        reason,
        report_id: reportId?.toString() ?? null,
      },
    );
    return { report_id: reportId === null ? null : Number(reportId) };
  });
}

async function storeFile(
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
