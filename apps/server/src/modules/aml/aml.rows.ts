import type { TAmlAlert, TAmlCaseRow, TAmlReportRow, TAmlRule } from '@sorte/contract';

/** The compliance API's rows from the repos' (ADR 040). */

export type TRow = Record<string, unknown>;
export const str = (value: unknown) => (value === null || value === undefined ? null : String(value));
export const json = (value: unknown) =>
  (typeof value === 'string' ? JSON.parse(value) : value) as Record<string, unknown>;
export const TIMELINE_LIMIT = 100;
export const BETS_SINCE_DAYS = 90;

export function alertOf(row: TRow): TAmlAlert {
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

export function caseOf(row: TRow): TAmlCaseRow {
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

export function reportOf(row: TRow): TAmlReportRow {
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
