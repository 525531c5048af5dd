import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { isoOf, rowsOf } from '../../db/sql.ts';

/** SQL of the compliance screens (ADR 040): alerts, cases, the player's timeline, holds, files. */

type TRow = Record<string, unknown>;
const id = (value: bigint | string | number) => sql`${value.toString()}::bigint`;
const site = (siteId: bigint) => sql`${siteId.toString()}::bigint`;

export async function findAlerts(
  executor: Executor,
  siteId: bigint,
  filter: { caseId?: bigint; rule?: string; limit: number },
): Promise<TRow[]> {
  const byCase = filter.caseId === undefined ? sql`` : sql` AND a.case_id = ${id(filter.caseId)}`;
  const byRule = filter.rule === undefined ? sql`` : sql` AND a.rule = ${filter.rule}`;
  return rowsOf<TRow>(
    executor,
    sql`SELECT a.id::text AS id, a.case_id::text AS case_id, a.member_id::text AS member_id, m.username,
               a.rule, a.amount_minor::text AS amount_minor, a.evidence, a.legal_basis,
               ${isoOf(sql`a.event_at`)} AS event_at, ${isoOf(sql`a.created_at`)} AS created_at
        FROM aml_alerts a JOIN members m ON m.id = a.member_id
        WHERE a.site_id = ${site(siteId)}${byCase}${byRule}
        ORDER BY a.id DESC
        LIMIT ${filter.limit}`,
  );
}

const CASE_COLUMNS = sql`c.id::text AS id, c.member_id::text AS member_id, m.username, c.status,
  (SELECT count(*)::int FROM aml_alerts a WHERE a.case_id = c.id) AS alerts,
  (SELECT coalesce(array_agg(DISTINCT a.rule), '{}') FROM aml_alerts a WHERE a.case_id = c.id) AS rules,
  (SELECT coalesce(sum(a.amount_minor), 0)::text FROM aml_alerts a WHERE a.case_id = c.id) AS amount_minor,
  o.username AS assigned_to, EXISTS (SELECT 1 FROM aml_holds h WHERE h.case_id = c.id) AS held,
  ${isoOf(sql`c.created_at`)} AS created_at, ${isoOf(sql`c.updated_at`)} AS updated_at,
  c.decision_reason, d.username AS decided_by, ${isoOf(sql`c.decided_at`)} AS decided_at`;

export async function findCases(
  executor: Executor,
  siteId: bigint,
  filter: { status?: string; limit: number },
): Promise<TRow[]> {
  const byStatus = filter.status === undefined ? sql`` : sql` AND c.status = ${filter.status}`;
  return rowsOf<TRow>(
    executor,
    sql`SELECT ${CASE_COLUMNS}
        FROM aml_cases c JOIN members m ON m.id = c.member_id
        LEFT JOIN operators o ON o.id = c.assigned_to LEFT JOIN operators d ON d.id = c.decided_by
        WHERE c.site_id = ${site(siteId)}${byStatus}
        ORDER BY c.updated_at DESC, c.id DESC
        LIMIT ${filter.limit}`,
  );
}

/** One case of the site (null: none, or another site's). */
export async function findCase(executor: Executor, siteId: bigint, caseId: bigint): Promise<TRow | null> {
  const rows = await rowsOf<TRow>(
    executor,
    sql`SELECT ${CASE_COLUMNS}
        FROM aml_cases c JOIN members m ON m.id = c.member_id
        LEFT JOIN operators o ON o.id = c.assigned_to LEFT JOIN operators d ON d.id = c.decided_by
        WHERE c.site_id = ${site(siteId)} AND c.id = ${id(caseId)}`,
  );
  return rows[0] ?? null;
}

/** The case row locked for a decision (null: none on this site). */
export async function lockCase(
  executor: Executor,
  siteId: bigint,
  caseId: bigint,
): Promise<{ id: bigint; memberId: bigint; status: string; assignedTo: string | null } | null> {
  const rows = await rowsOf<TRow>(
    executor,
    sql`SELECT id::text AS id, member_id::text AS member_id, status, assigned_to::text AS assigned_to
        FROM aml_cases WHERE site_id = ${site(siteId)} AND id = ${id(caseId)} FOR NO KEY UPDATE`,
  );
  const row = rows[0];
  if (!row) return null;
  return {
    id: BigInt(String(row.id)),
    memberId: BigInt(String(row.member_id)),
    status: String(row.status),
    assignedTo: row.assigned_to === null ? null : String(row.assigned_to),
  };
}

/** Whether the operator is of this site and of a role in `roles`. */
export async function operatorOfSite(
  executor: Executor,
  siteId: bigint,
  operatorId: bigint,
  roles: readonly string[],
): Promise<boolean> {
  const rows = await rowsOf<{ one: number }>(
    executor,
    sql`SELECT 1 AS one FROM operators
        WHERE site_id = ${site(siteId)} AND id = ${id(operatorId)}
          AND role IN (${sql.join(
            roles.map((role) => sql`${role}`),
            sql`, `,
          )})`,
  );
  return rows.length > 0;
}

export async function setAssignee(
  executor: Executor,
  caseId: bigint,
  operatorId: bigint | null,
): Promise<void> {
  await executor.execute(
    sql`UPDATE aml_cases SET assigned_to = ${operatorId === null ? null : operatorId.toString()}::bigint,
          updated_at = now() WHERE id = ${id(caseId)}`,
  );
}

export async function insertNote(
  executor: Executor,
  caseId: bigint,
  operatorId: bigint,
  body: string,
): Promise<void> {
  await executor.execute(
    sql`INSERT INTO aml_case_notes (case_id, operator_id, body) VALUES (${id(caseId)}, ${id(operatorId)}, ${body})`,
  );
  await executor.execute(sql`UPDATE aml_cases SET updated_at = now() WHERE id = ${id(caseId)}`);
}

export async function findNotes(executor: Executor, caseId: bigint): Promise<TRow[]> {
  return rowsOf<TRow>(
    executor,
    sql`SELECT n.id::text AS id, o.username AS operator, n.body, ${isoOf(sql`n.created_at`)} AS created_at
        FROM aml_case_notes n JOIN operators o ON o.id = n.operator_id
        WHERE n.case_id = ${id(caseId)} ORDER BY n.id`,
  );
}

export async function decideCase(
  executor: Executor,
  caseId: bigint,
  decision: { status: 'closed' | 'reported'; reason: string; operatorId: bigint },
): Promise<void> {
  await executor.execute(
    sql`UPDATE aml_cases SET status = ${decision.status}, decision_reason = ${decision.reason},
          decided_by = ${id(decision.operatorId)}, decided_at = now(), updated_at = now()
        WHERE id = ${id(caseId)}`,
  );
}

/** Holds the member's withdrawals for this case; false when they were already held. */
export async function insertHold(
  executor: Executor,
  hold: { siteId: bigint; memberId: bigint; caseId: bigint; operatorId: bigint },
): Promise<boolean> {
  const rows = await rowsOf<{ member_id: string }>(
    executor,
    sql`INSERT INTO aml_holds (member_id, site_id, case_id, held_by)
        VALUES (${id(hold.memberId)}, ${site(hold.siteId)}, ${id(hold.caseId)}, ${id(hold.operatorId)})
        ON CONFLICT (member_id) DO NOTHING RETURNING member_id::text AS member_id`,
  );
  return rows.length > 0;
}

/** Lifts the hold this case placed (a hold of another case, a reported one, stays). */
export async function deleteHold(executor: Executor, memberId: bigint, caseId: bigint): Promise<boolean> {
  const rows = await rowsOf<{ member_id: string }>(
    executor,
    sql`DELETE FROM aml_holds WHERE member_id = ${id(memberId)} AND case_id = ${id(caseId)}
        RETURNING member_id::text AS member_id`,
  );
  return rows.length > 0;
}

/** Who the player is, for the case and the COAF file. */
export async function findPlayer(executor: Executor, siteId: bigint, memberId: bigint): Promise<TRow | null> {
  const rows = await rowsOf<TRow>(
    executor,
    sql`SELECT m.id::text AS member_id, m.username, m.realname, m.cpf, to_char(m.birth_date, 'YYYY-MM-DD') AS birth_date,
               coalesce(k.pep, false) AS pep, ${isoOf(sql`m.created_at`)} AS created_at
        FROM members m LEFT JOIN member_kyc k ON k.member_id = m.id
        WHERE m.site_id = ${site(siteId)} AND m.id = ${id(memberId)}`,
  );
  return rows[0] ?? null;
}

/** The player's money and logins, newest first: deposits, withdrawals, sessions (at most `limit` of each). */
export async function findTimeline(executor: Executor, memberId: bigint, limit: number): Promise<TRow[]> {
  const member = id(memberId);
  return rowsOf<TRow>(
    executor,
    sql`(SELECT ${isoOf(sql`coalesce(paid_at, created_at)`)} AS at, 'deposit' AS kind, amount_minor::text AS amount_minor,
                order_no || ' ' || status || coalesce(' payer ' || payer_cpf, '') AS detail
           FROM deposit_orders WHERE member_id = ${member} AND status IN ('paid', 'refunded')
           ORDER BY id DESC LIMIT ${limit})
        UNION ALL
        (SELECT ${isoOf(sql`created_at`)}, 'withdrawal', amount_minor::text,
                order_no || ' ' || status || ' ' || pix_key_type || ':' || pix_key
           FROM withdrawal_orders WHERE member_id = ${member} ORDER BY id DESC LIMIT ${limit})
        UNION ALL
        (SELECT ${isoOf(sql`created_at`)}, 'login', NULL, coalesce(ip, '') || ' ' || coalesce(user_agent, '')
           FROM member_sessions WHERE member_id = ${member} ORDER BY id DESC LIMIT ${limit})
        ORDER BY at DESC`,
  );
}

/** The player's stakes and wins since `since` (every product: the ledger). */
export async function findBetSummary(executor: Executor, memberId: bigint, since: Date): Promise<TRow> {
  const rows = await rowsOf<TRow>(
    executor,
    sql`SELECT count(*) FILTER (WHERE t.kind = 'bet' AND t.debit_account_id = a.id)::int AS count,
               coalesce(sum(t.amount_minor) FILTER (WHERE t.kind = 'bet' AND t.debit_account_id = a.id), 0)::text AS staked,
               coalesce(sum(t.amount_minor) FILTER (WHERE t.kind = 'win' AND t.credit_account_id = a.id), 0)::text AS won
        FROM wallet_accounts a
        JOIN wallet_transfers t ON (t.debit_account_id = a.id OR t.credit_account_id = a.id)
        WHERE a.member_id = ${id(memberId)} AND a.kind IN ('cash', 'bonus')
          AND t.created_at >= ${since.toISOString()}::timestamptz`,
  );
  return rows[0]!;
}

/** The identifiers the player was seen with, and how many other accounts of the site share each. */
export async function findDevices(executor: Executor, siteId: bigint, memberId: bigint): Promise<TRow[]> {
  return rowsOf<TRow>(
    executor,
    sql`SELECT i.kind, i.value, ${isoOf(sql`i.last_seen`)} AS last_seen,
               (SELECT count(*)::int FROM aml_identifiers o
                 WHERE o.site_id = i.site_id AND o.kind = i.kind AND o.value = i.value AND o.member_id <> i.member_id) AS other_accounts
        FROM aml_identifiers i
        WHERE i.site_id = ${site(siteId)} AND i.member_id = ${id(memberId)}
        ORDER BY i.last_seen DESC LIMIT 100`,
  );
}

export async function findKycChecks(executor: Executor, memberId: bigint): Promise<TRow[]> {
  return rowsOf<TRow>(
    executor,
    sql`SELECT check_kind, outcome, reason, ${isoOf(sql`created_at`)} AS created_at
        FROM kyc_checks WHERE member_id = ${id(memberId)} ORDER BY id DESC LIMIT 50`,
  );
}

export async function insertReport(
  executor: Executor,
  report: {
    siteId: bigint;
    kind: 'coaf' | 'non_occurrence' | 'annual';
    year: number;
    caseId: bigint | null;
    fileName: string;
    content: string;
    sha256: string;
    operatorId: bigint;
  },
): Promise<bigint> {
  const rows = await rowsOf<{ id: string }>(
    executor,
    sql`INSERT INTO aml_reports (site_id, kind, year, case_id, file_name, content, sha256, created_by)
        VALUES (${site(report.siteId)}, ${report.kind}, ${report.year},
                ${report.caseId === null ? null : report.caseId.toString()}::bigint, ${report.fileName},
                ${report.content}, ${report.sha256}, ${id(report.operatorId)})
        RETURNING id::text AS id`,
  );
  return BigInt(rows[0]!.id);
}

const REPORT_COLUMNS = sql`r.id::text AS id, r.kind, r.year, r.case_id::text AS case_id, r.file_name, r.sha256,
  o.username AS created_by, ${isoOf(sql`r.created_at`)} AS created_at`;

export async function findReports(executor: Executor, siteId: bigint, caseId?: bigint): Promise<TRow[]> {
  const byCase = caseId === undefined ? sql`` : sql` AND r.case_id = ${id(caseId)}`;
  return rowsOf<TRow>(
    executor,
    sql`SELECT ${REPORT_COLUMNS} FROM aml_reports r JOIN operators o ON o.id = r.created_by
        WHERE r.site_id = ${site(siteId)}${byCase} ORDER BY r.id DESC LIMIT 200`,
  );
}

export async function findReportFile(
  executor: Executor,
  siteId: bigint,
  reportId: bigint,
): Promise<{ fileName: string; content: string; sha256: string } | null> {
  const rows = await rowsOf<TRow>(
    executor,
    sql`SELECT file_name, content, sha256 FROM aml_reports WHERE site_id = ${site(siteId)} AND id = ${id(reportId)}`,
  );
  const row = rows[0];
  return row
    ? { fileName: String(row.file_name), content: String(row.content), sha256: String(row.sha256) }
    : null;
}

/** The COAF communications the site made in a year (a local calendar year is the site's choice: UTC here). */
export async function countCoafReports(executor: Executor, siteId: bigint, year: number): Promise<number> {
  const rows = await rowsOf<{ count: number }>(
    executor,
    sql`SELECT count(*)::int AS count FROM aml_reports WHERE site_id = ${site(siteId)} AND kind = 'coaf' AND year = ${year}`,
  );
  return rows[0]?.count ?? 0;
}

/** A year of compliance activity for the annual report: alerts per rule, cases by outcome, holds. */
export async function findYearFigures(executor: Executor, siteId: bigint, year: number): Promise<TRow> {
  const from = `${year}-01-01T00:00:00Z`;
  const to = `${year + 1}-01-01T00:00:00Z`;
  const rows = await rowsOf<TRow>(
    executor,
    sql`SELECT
          (SELECT coalesce(jsonb_object_agg(rule, n), '{}'::jsonb) FROM (
             SELECT rule, count(*)::int AS n FROM aml_alerts
             WHERE site_id = ${site(siteId)} AND created_at >= ${from}::timestamptz AND created_at < ${to}::timestamptz
             GROUP BY rule) per_rule) AS alerts_per_rule,
          (SELECT count(*)::int FROM aml_cases WHERE site_id = ${site(siteId)}
             AND created_at >= ${from}::timestamptz AND created_at < ${to}::timestamptz) AS cases_opened,
          (SELECT count(*)::int FROM aml_cases WHERE site_id = ${site(siteId)} AND status = 'closed'
             AND decided_at >= ${from}::timestamptz AND decided_at < ${to}::timestamptz) AS cases_closed,
          (SELECT count(*)::int FROM aml_cases WHERE site_id = ${site(siteId)} AND status = 'reported'
             AND decided_at >= ${from}::timestamptz AND decided_at < ${to}::timestamptz) AS cases_reported,
          (SELECT count(*)::int FROM aml_cases WHERE site_id = ${site(siteId)} AND status = 'open') AS cases_open_now,
          (SELECT count(*)::int FROM aml_holds WHERE site_id = ${site(siteId)}) AS holds_now`,
  );
  return rows[0]!;
}

export async function findSite(executor: Executor, siteId: bigint): Promise<TRow> {
  const rows = await rowsOf<TRow>(
    executor,
    sql`SELECT code, name, jurisdiction FROM sites WHERE id = ${site(siteId)}`,
  );
  return rows[0]!;
}

/** Every rule of a profile, enabled or not, for the annual report. */
export async function findProfileRules(executor: Executor, jurisdiction: string): Promise<TRow[]> {
  return rowsOf<TRow>(
    executor,
    sql`SELECT rule, legal_basis, params, enabled FROM aml_rules WHERE jurisdiction = ${jurisdiction} ORDER BY rule`,
  );
}
