import { type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { isoOf } from '../../db/sql.ts';
import type { TAgencyRules } from './agency.profiles.ts';

/** SQL of the agency (migrations/0031_agency.sql; team links are members.agent_id). */

async function rowsOf<T>(executor: Executor, query: SQL): Promise<T[]> {
  const result = (await executor.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

export async function findRules(executor: Executor, siteId: bigint): Promise<TAgencyRules | null> {
  const [row] = await rowsOf<{ rules: TAgencyRules }>(
    executor,
    sql`SELECT rules FROM agency_rules WHERE site_id = ${siteId}`,
  );
  return row?.rules ?? null;
}

export async function insertRules(executor: Executor, siteId: bigint, rules: TAgencyRules): Promise<void> {
  await executor.execute(
    sql`INSERT INTO agency_rules (site_id, rules) VALUES (${siteId}, ${JSON.stringify(rules)}::jsonb)
        ON CONFLICT (site_id) DO NOTHING`,
  );
}

export async function replaceRules(executor: Executor, siteId: bigint, rules: TAgencyRules): Promise<void> {
  await executor.execute(
    sql`INSERT INTO agency_rules (site_id, rules) VALUES (${siteId}, ${JSON.stringify(rules)}::jsonb)
        ON CONFLICT (site_id) DO UPDATE SET rules = EXCLUDED.rules, updated_at = now()`,
  );
}

export interface TTeamRow {
  id: string;
  username: string;
  level: number;
  joined_at: string;
  total_deposit: string;
  total_bet: string;
  bet_since: string;
}

/**
 * The member's team down to `maxLevels` (level 1 = invited by the member), with each member's
 * deposits and stakes in total and their stakes since `since`.
 */
export async function findTeam(
  executor: Executor,
  siteId: bigint,
  memberId: bigint,
  maxLevels: number,
  since: Date,
): Promise<TTeamRow[]> {
  return rowsOf<TTeamRow>(
    executor,
    sql`WITH RECURSIVE team(id, level) AS (
          SELECT id, 1 FROM members WHERE agent_id = ${memberId} AND site_id = ${siteId}
          UNION ALL
          SELECT m.id, t.level + 1 FROM members m JOIN team t ON m.agent_id = t.id WHERE t.level < ${maxLevels}
        ),
        money AS (
          SELECT a.member_id,
            coalesce(sum(tr.amount_minor) FILTER (WHERE tr.kind = 'deposit' AND tr.credit_account_id = a.id), 0) AS deposits,
            coalesce(sum(tr.amount_minor) FILTER (WHERE tr.kind = 'bet' AND tr.debit_account_id = a.id), 0) AS bets,
            coalesce(sum(tr.amount_minor) FILTER (
              WHERE tr.kind = 'bet' AND tr.debit_account_id = a.id AND tr.created_at >= ${since.toISOString()}::timestamptz), 0) AS bets_since
          FROM wallet_accounts a
          JOIN wallet_transfers tr ON tr.debit_account_id = a.id OR tr.credit_account_id = a.id
          WHERE a.member_id IN (SELECT id FROM team) AND a.kind IN ('cash', 'bonus')
          GROUP BY a.member_id
        )
        SELECT m.id::text, m.username, t.level, ${isoOf(sql`m.created_at`)} AS joined_at,
               coalesce(sum(money.deposits), 0)::text AS total_deposit,
               coalesce(sum(money.bets), 0)::text AS total_bet,
               coalesce(sum(money.bets_since), 0)::text AS bet_since
        FROM team t JOIN members m ON m.id = t.id
        LEFT JOIN money ON money.member_id = m.id
        GROUP BY m.id, m.username, t.level, m.created_at
        ORDER BY m.created_at DESC, m.id DESC`,
  );
}

export interface TActivityRow {
  member_id: string;
  stake: string;
  wins: string;
  refunds: string;
  deposits: string;
  rewards: string;
}

/** Each member's money in [start, end) on the site, from the ledger (members with an inviter only). */
export async function findActivity(
  executor: Executor,
  siteId: bigint,
  start: Date,
  end: Date,
): Promise<TActivityRow[]> {
  return rowsOf<TActivityRow>(
    executor,
    sql`SELECT a.member_id::text AS member_id,
          coalesce(sum(t.amount_minor) FILTER (WHERE t.kind = 'bet' AND t.debit_account_id = a.id), 0)::text AS stake,
          coalesce(sum(t.amount_minor) FILTER (WHERE t.kind = 'win' AND t.credit_account_id = a.id), 0)::text AS wins,
          coalesce(sum(t.amount_minor) FILTER (WHERE t.kind = 'refund' AND t.credit_account_id = a.id), 0)::text AS refunds,
          coalesce(sum(t.amount_minor) FILTER (WHERE t.kind = 'deposit' AND t.credit_account_id = a.id), 0)::text AS deposits,
          coalesce(sum(t.amount_minor) FILTER (
            WHERE t.kind IN ('bonus_grant', 'rebate', 'commission', 'chat_rain') AND t.credit_account_id = a.id), 0)::text AS rewards
        FROM wallet_accounts a
        JOIN members m ON m.id = a.member_id AND m.agent_id IS NOT NULL
        JOIN wallet_transfers t ON t.debit_account_id = a.id OR t.credit_account_id = a.id
        WHERE a.site_id = ${siteId} AND a.kind IN ('cash', 'bonus')
          AND t.created_at >= ${start.toISOString()}::timestamptz AND t.created_at < ${end.toISOString()}::timestamptz
        GROUP BY a.member_id`,
  );
}

/** (descendant, ancestor, level) for the given members, up to `maxLevels` above each. */
export async function findAncestors(
  executor: Executor,
  memberIds: bigint[],
  maxLevels: number,
): Promise<{ descendant: string; ancestor: string; level: number }[]> {
  if (memberIds.length === 0) return [];
  const ids = sql.join(
    memberIds.map((id) => sql`${id}`),
    sql`, `,
  );
  return rowsOf(
    executor,
    sql`WITH RECURSIVE up(descendant, ancestor, level) AS (
          SELECT id, agent_id, 1 FROM members WHERE id IN (${ids}) AND agent_id IS NOT NULL
          UNION ALL
          SELECT up.descendant, m.agent_id, up.level + 1
          FROM up JOIN members m ON m.id = up.ancestor
          WHERE m.agent_id IS NOT NULL AND up.level < ${maxLevels}
        )
        SELECT descendant::text, ancestor::text, level FROM up`,
  );
}

/** The period's run row; null when the period was settled already (or is being settled right now). */
export async function insertRun(
  executor: Executor,
  siteId: bigint,
  period: string,
  rules: TAgencyRules,
): Promise<bigint | null> {
  const [row] = await rowsOf<{ id: string }>(
    executor,
    sql`INSERT INTO agency_settlement_runs (site_id, period, rules, members, total_minor)
        VALUES (${siteId}, ${period}, ${JSON.stringify(rules)}::jsonb, 0, 0)
        ON CONFLICT (site_id, period) DO NOTHING RETURNING id::text`,
  );
  return row ? BigInt(row.id) : null;
}

export async function finishRun(executor: Executor, runId: bigint, members: number, totalMinor: bigint) {
  await executor.execute(
    sql`UPDATE agency_settlement_runs SET members = ${members}, total_minor = ${totalMinor} WHERE id = ${runId}`,
  );
}

export async function insertCommission(
  executor: Executor,
  input: {
    siteId: bigint;
    runId: bigint;
    period: string;
    memberId: bigint;
    basis: string;
    teamVolumeMinor: bigint;
    levels: unknown;
    directMinor: bigint;
    indirectMinor: bigint;
  },
): Promise<void> {
  await executor.execute(
    sql`INSERT INTO agency_commissions (site_id, run_id, period, member_id, basis, team_volume_minor, levels,
          direct_minor, indirect_minor, amount_minor)
        VALUES (${input.siteId}, ${input.runId}, ${input.period}, ${input.memberId}, ${input.basis},
          ${input.teamVolumeMinor}, ${JSON.stringify(input.levels)}::jsonb, ${input.directMinor},
          ${input.indirectMinor}, ${input.directMinor + input.indirectMinor})`,
  );
}

export interface TCommissionRow {
  id: string;
  period: string;
  basis: 'turnover' | 'ngr';
  team_volume_minor: string;
  direct_minor: string;
  indirect_minor: string;
  amount_minor: string;
  status: 'unclaimed' | 'claimed';
  claimed_at: string | null;
}

export async function findCommissions(
  executor: Executor,
  siteId: bigint,
  memberId: bigint,
  options: { unclaimedOnly?: boolean; lock?: boolean; limit?: number } = {},
): Promise<TCommissionRow[]> {
  return rowsOf<TCommissionRow>(
    executor,
    sql`SELECT id::text, period, basis, team_volume_minor::text, direct_minor::text, indirect_minor::text,
               amount_minor::text, status, CASE WHEN claimed_at IS NULL THEN NULL ELSE ${isoOf(sql`claimed_at`)} END AS claimed_at
        FROM agency_commissions
        WHERE site_id = ${siteId} AND member_id = ${memberId}
          ${options.unclaimedOnly ? sql`AND status = 'unclaimed'` : sql``}
        ORDER BY period DESC, id DESC
        ${options.limit ? sql`LIMIT ${options.limit}` : sql``}
        ${options.lock ? sql`FOR NO KEY UPDATE` : sql``}`,
  );
}

export async function sumCommissions(executor: Executor, siteId: bigint, memberId: bigint) {
  const [row] = await rowsOf<{ direct: string; indirect: string; unclaimed: string; claimed: string }>(
    executor,
    sql`SELECT coalesce(sum(direct_minor), 0)::text AS direct, coalesce(sum(indirect_minor), 0)::text AS indirect,
               coalesce(sum(amount_minor) FILTER (WHERE status = 'unclaimed'), 0)::text AS unclaimed,
               coalesce(sum(amount_minor) FILTER (WHERE status = 'claimed'), 0)::text AS claimed
        FROM agency_commissions WHERE site_id = ${siteId} AND member_id = ${memberId}`,
  );
  return {
    directMinor: BigInt(row?.direct ?? 0),
    indirectMinor: BigInt(row?.indirect ?? 0),
    unclaimedMinor: BigInt(row?.unclaimed ?? 0),
    claimedMinor: BigInt(row?.claimed ?? 0),
  };
}

export async function markClaimed(executor: Executor, commissionId: bigint, transferId: bigint) {
  await executor.execute(
    sql`UPDATE agency_commissions SET status = 'claimed', claimed_at = now(), transfer_id = ${transferId}
        WHERE id = ${commissionId} AND status = 'unclaimed'`,
  );
}

export async function lastSettledPeriod(executor: Executor, siteId: bigint): Promise<string | null> {
  const [row] = await rowsOf<{ period: string }>(
    executor,
    sql`SELECT max(period) AS period FROM agency_settlement_runs WHERE site_id = ${siteId}`,
  );
  return row?.period ?? null;
}

export async function findInviteCode(executor: Executor, siteId: bigint, memberId: bigint) {
  const [row] = await rowsOf<{ invite_code: string }>(
    executor,
    sql`SELECT invite_code FROM members WHERE id = ${memberId} AND site_id = ${siteId}`,
  );
  return row?.invite_code ?? null;
}

/** Active sites (the settlement job's list). */
export async function findActiveSiteIds(executor: Executor): Promise<bigint[]> {
  const rows = await rowsOf<{ id: string }>(
    executor,
    sql`SELECT id::text FROM sites WHERE status = 1 ORDER BY id`,
  );
  return rows.map((row) => BigInt(row.id));
}
