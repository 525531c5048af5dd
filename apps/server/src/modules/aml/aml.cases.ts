import type { TAmlCaseDetail, TAmlReportRow } from '@sorte/contract';
import { recordOperatorAction, type TOperatorAuth } from '../../core/audit.ts';
import { maskCpf } from '../../core/pii-masks.ts';
import type { Db, Executor } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import { roleCan } from '../admin/permissions.ts';
import { seesPii } from '../admin/pii.ts';
import { forceOffline } from '../sessions/sessions.service.ts';
import { coafFileOf, storeFile } from './aml.reports.ts';
import { alertOf, BETS_SINCE_DAYS, caseOf, str, TIMELINE_LIMIT, type TRow } from './aml.rows.ts';
import {
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
  findReports,
  findTimeline,
  insertHold,
  insertNote,
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

/** Who the case is about; the CPF masked for a role without players.pii. */
function playerOf(player: TRow, operator: TOperatorAuth): TAmlCaseDetail['player'] {
  const cpf = str(player.cpf);
  return {
    member_id: Number(player.member_id),
    username: String(player.username),
    realname: String(player.realname),
    cpf: cpf && !seesPii(operator) ? maskCpf(cpf) : cpf,
    birth_date: str(player.birth_date),
    pep: player.pep === true,
    created_at: String(player.created_at),
  };
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
  return {
    case: {
      ...caseOf(row),
      decision_reason: str(row.decision_reason),
      decided_by: str(row.decided_by),
      decided_at: str(row.decided_at),
    },
    player: playerOf(player, operator),
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
