import type { TKycAction, TKycCheck, TKycSessionStatus } from '@sorte/contract';
import { and, desc, eq, lt, type SQL, sql } from 'drizzle-orm';
import type { TSite } from '../../core/site.ts';
import type { Executor } from '../../db/client.ts';
import { rowsOf } from '../../db/sql.ts';
import { kycChecks, kycSessions, kycWebhookEvents, memberKyc } from './kyc.schema.ts';

/** SQL of identity verification; every function takes the executor (or transaction) it runs in. */

export type TKycRule = {
  action: TKycAction;
  requiredChecks: TKycCheck[];
  aboveAmountMinor: bigint | null;
  aboveTotalMinor: bigint | null;
  legalBasis: string;
  legalBasisKey: string;
};

const checksOf = (value: unknown): TKycCheck[] =>
  (Array.isArray(value)
    ? value
    : String(value ?? '')
        .replace(/[{}]/g, '')
        .split(',')
  ).filter(Boolean) as TKycCheck[];

const bigintOrNull = (value: unknown): bigint | null =>
  value === null || value === undefined ? null : BigInt(String(value));

/** The site's rules (its jurisdiction profile's rows, with the site's own withdrawal thresholds). */
export async function findKycRules(
  executor: Executor,
  site: Pick<TSite, 'id' | 'jurisdiction'>,
): Promise<TKycRule[]> {
  const rows = await rowsOf<Record<string, unknown>>(
    executor,
    sql`SELECT r.action, r.required_checks, r.legal_basis, r.legal_basis_key,
          CASE WHEN t.site_id IS NULL THEN r.above_amount_minor ELSE t.above_amount_minor END::text AS above_amount,
          CASE WHEN t.site_id IS NULL THEN r.above_total_minor ELSE t.above_total_minor END::text AS above_total
        FROM kyc_rules r
        LEFT JOIN site_kyc_thresholds t ON t.site_id = ${site.id.toString()}::bigint AND r.action = 'withdrawal'
        WHERE r.jurisdiction = ${site.jurisdiction}
        ORDER BY array_position(ARRAY['deposit','bet','withdrawal'], r.action)`,
  );
  return rows.map((row) => ({
    action: row.action as TKycAction,
    requiredChecks: checksOf(row.required_checks),
    aboveAmountMinor: bigintOrNull(row.above_amount),
    aboveTotalMinor: bigintOrNull(row.above_total),
    legalBasis: String(row.legal_basis),
    legalBasisKey: String(row.legal_basis_key),
  }));
}

/**
 * The checks the site's rule for a deposit or a bet requires that the member has not passed, as a
 * scalar SQL expression (`text[]`, NULL when nothing is missing) for the gate of responsible
 * gaming: `member` is the member's id, a bind or a column of the gate's statement.
 */
export function kycMissingExpression(member: SQL, action: Exclude<TKycAction, 'withdrawal'>): SQL {
  return sql`(SELECT ARRAY(SELECT u.c FROM unnest(r.required_checks) WITH ORDINALITY AS u (c, n)
                    WHERE NOT u.c = ANY (coalesce(k.passed_checks, '{}')) ORDER BY u.n)
      FROM members km JOIN sites ks ON ks.id = km.site_id
      JOIN kyc_rules r ON r.jurisdiction = ks.jurisdiction AND r.action = ${action}
      LEFT JOIN member_kyc k ON k.member_id = km.id
     WHERE km.id = ${member} AND NOT (r.required_checks <@ coalesce(k.passed_checks, '{}')))`;
}

export type TMemberKyc = { passedChecks: TKycCheck[]; pep: boolean };

export async function findMemberKyc(executor: Executor, memberId: bigint): Promise<TMemberKyc> {
  const [row] = await executor
    .select({ passedChecks: memberKyc.passedChecks, pep: memberKyc.pep })
    .from(memberKyc)
    .where(eq(memberKyc.memberId, memberId))
    .limit(1);
  return { passedChecks: checksOf(row?.passedChecks ?? []), pep: row?.pep ?? false };
}

/** Adds a passed check to the member's row (created on first use); idempotent. */
export async function addPassedCheck(
  executor: Executor,
  member: { siteId: bigint; memberId: bigint },
  check: TKycCheck,
): Promise<void> {
  await executor.execute(sql`
    INSERT INTO member_kyc (member_id, site_id, passed_checks)
    VALUES (${member.memberId.toString()}::bigint, ${member.siteId.toString()}::bigint, ARRAY[${check}]::text[])
    ON CONFLICT (member_id) DO UPDATE SET
      passed_checks = ARRAY(SELECT DISTINCT unnest(member_kyc.passed_checks || EXCLUDED.passed_checks) ORDER BY 1),
      updated_at = now()`);
}

/** Marks the member as a politically exposed person (the provider flagged them). */
export async function setPep(
  executor: Executor,
  member: { siteId: bigint; memberId: bigint },
): Promise<void> {
  await executor.execute(sql`
    INSERT INTO member_kyc (member_id, site_id, pep)
    VALUES (${member.memberId.toString()}::bigint, ${member.siteId.toString()}::bigint, true)
    ON CONFLICT (member_id) DO UPDATE SET pep = true, updated_at = now()`);
}

export async function insertCheck(
  executor: Executor,
  check: {
    siteId: bigint;
    memberId: bigint;
    checkKind: TKycCheck | 'pep';
    outcome: 'passed' | 'failed' | 'resubmit' | 'flagged';
    reason: string | null;
    sessionId: bigint | null;
    source: 'provider' | 'seed' | 'operator';
  },
): Promise<void> {
  await executor.insert(kycChecks).values(check);
}

/** Whether the member already has a check of this kind with this outcome (seeding stays idempotent). */
export async function hasCheck(
  executor: Executor,
  memberId: bigint,
  checkKind: TKycCheck,
  outcome: 'passed' | 'failed',
): Promise<boolean> {
  const rows = await executor
    .select({ id: kycChecks.id })
    .from(kycChecks)
    .where(
      and(
        eq(kycChecks.memberId, memberId),
        eq(kycChecks.checkKind, checkKind),
        eq(kycChecks.outcome, outcome),
      ),
    )
    .limit(1);
  return rows.length > 0;
}

/** What the CPF check sends and compares: the member's CPF, name, birth date and the site's minimum age. */
export async function findMemberIdentity(
  executor: Executor,
  memberId: bigint,
): Promise<{ cpf: string | null; realname: string; birthDate: string | null; minAge: number } | null> {
  const rows = await rowsOf<Record<string, unknown>>(
    executor,
    sql`SELECT m.cpf, m.realname, to_char(m.birth_date, 'YYYY-MM-DD') AS birth_date, s.min_age
          FROM members m JOIN sites s ON s.id = m.site_id WHERE m.id = ${memberId.toString()}::bigint`,
  );
  const row = rows[0];
  if (!row) return null;
  return {
    cpf: (row.cpf as string | null) ?? null,
    realname: String(row.realname),
    birthDate: (row.birth_date as string | null) ?? null,
    minAge: Number(row.min_age),
  };
}

export type TKycSessionRow = typeof kycSessions.$inferSelect;

export async function findLatestSession(
  executor: Executor,
  memberId: bigint,
): Promise<TKycSessionRow | null> {
  const [row] = await executor
    .select()
    .from(kycSessions)
    .where(eq(kycSessions.memberId, memberId))
    .orderBy(desc(kycSessions.id))
    .limit(1);
  return row ?? null;
}

export async function insertSession(
  executor: Executor,
  session: {
    siteId: bigint;
    memberId: bigint;
    provider: string;
    providerSessionId: string;
    captureUrl: string;
  },
): Promise<TKycSessionRow> {
  const [row] = await executor.insert(kycSessions).values(session).returning();
  if (!row) throw new Error('insert into kyc_sessions returned nothing');
  return row;
}

export async function findSessionByProviderId(
  executor: Executor,
  provider: string,
  providerSessionId: string,
): Promise<TKycSessionRow | null> {
  const [row] = await executor
    .select()
    .from(kycSessions)
    .where(and(eq(kycSessions.provider, provider), eq(kycSessions.providerSessionId, providerSessionId)))
    .limit(1);
  return row ?? null;
}

/** The provider's session, locked for the decision that changes it. */
export async function lockSessionByProviderId(
  executor: Executor,
  provider: string,
  providerSessionId: string,
): Promise<TKycSessionRow | null> {
  const [row] = await executor
    .select()
    .from(kycSessions)
    .where(and(eq(kycSessions.provider, provider), eq(kycSessions.providerSessionId, providerSessionId)))
    .for('no key update')
    .limit(1);
  return row ?? null;
}

export async function updateSession(
  executor: Executor,
  id: bigint,
  change: { status: TKycSessionStatus; reason: string | null; lastSequence?: number },
): Promise<void> {
  const now = new Date();
  const final = change.status === 'approved' || change.status === 'rejected';
  await executor
    .update(kycSessions)
    .set({
      ...change,
      updatedAt: now,
      // The first time it reaches a final status (a later event keeps it: see applyKycEvent).
      ...(final ? { decidedAt: sql`coalesce(${kycSessions.decidedAt}, now())` } : {}),
      // Entering manual review (again, after a resubmission) asks for the files anew; a repeated
      // event of a session already in review keeps what was fetched.
      ...(change.status === 'manual_review'
        ? {
            reviewRequestedAt: sql`CASE WHEN ${kycSessions.status} = 'manual_review' THEN ${kycSessions.reviewRequestedAt} ELSE now() END`,
            documentsFetchedAt: sql`CASE WHEN ${kycSessions.status} = 'manual_review' THEN ${kycSessions.documentsFetchedAt} END`,
          }
        : {}),
    })
    .where(eq(kycSessions.id, id));
}

/**
 * Records a webhook event's id; false when it was already there (a replay: change nothing). Ids
 * older than a day are dropped on the way: their timestamps are long past the replay window.
 */
export async function recordWebhookEvent(
  executor: Executor,
  provider: string,
  eventId: string,
): Promise<boolean> {
  await executor
    .delete(kycWebhookEvents)
    .where(lt(kycWebhookEvents.receivedAt, new Date(Date.now() - 86_400_000)));
  const rows = await executor
    .insert(kycWebhookEvents)
    .values({ provider, eventId })
    .onConflictDoNothing()
    .returning({ eventId: kycWebhookEvents.eventId });
  return rows.length > 0;
}
