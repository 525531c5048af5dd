import { and, desc, eq, gt, isNull, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { rowsOf } from '../../db/sql.ts';
import { operatorSessions, operatorSetupTokens, operators } from './admin.schema.ts';

/**
 * The SQL of the back office's operators: sessions, recovery codes, setup links of a site's first
 * owner, and the audit log and its hash chain. The services decide; these only talk to the database.
 */

// ---------------------------------------------------------------------------------------------
// Operators and their sessions

/** A page of the site's operators, newest first, and how many the site has. */
export async function findSiteOperatorsPage(
  executor: Executor,
  siteId: bigint,
  page: { limit: number; offset: number },
) {
  const rows = await executor
    .select()
    .from(operators)
    .where(eq(operators.siteId, siteId))
    .orderBy(desc(operators.id))
    .limit(page.limit)
    .offset(page.offset);
  const [count] = await executor
    .select({ total: sql<number>`count(*)::int` })
    .from(operators)
    .where(eq(operators.siteId, siteId));
  return { rows, total: Number(count?.total ?? 0) };
}

export async function touchOperatorLogin(executor: Executor, operatorId: bigint): Promise<void> {
  await executor.update(operators).set({ lastLoginAt: sql`now()` }).where(eq(operators.id, operatorId));
}

export async function insertOperatorSession(
  executor: Executor,
  session: { siteId: bigint; operatorId: bigint; tokenHash: string; hours: number; ip: string | null },
): Promise<{ expiresAt: Date } | undefined> {
  const [row] = await executor
    .insert(operatorSessions)
    .values({
      siteId: session.siteId,
      operatorId: session.operatorId,
      tokenHash: session.tokenHash,
      expiresAt: sql`now() + make_interval(hours => ${session.hours})`,
      ip: session.ip,
    })
    .returning({ expiresAt: operatorSessions.expiresAt });
  return row;
}

/** The live session behind a token hash (not ended, not expired, not idle past `idleMinutes`). */
export async function findLiveOperatorSession(executor: Executor, tokenHash: string, idleMinutes: number) {
  const rows = await executor
    .select({
      sessionId: operatorSessions.id,
      operatorId: operators.id,
      siteId: operatorSessions.siteId,
      role: operators.role,
      username: operators.username,
      status: operators.status,
    })
    .from(operatorSessions)
    .innerJoin(operators, eq(operators.id, operatorSessions.operatorId))
    .where(
      and(
        eq(operatorSessions.tokenHash, tokenHash),
        isNull(operatorSessions.endedAt),
        gt(operatorSessions.expiresAt, sql`now()`),
        gt(operatorSessions.lastSeenAt, sql`now() - make_interval(mins => ${idleMinutes})`),
      ),
    )
    .limit(1);
  return rows[0];
}

/** Keeps a used session alive, writing last_seen_at at most every 30 s. */
export async function touchOperatorSession(executor: Executor, sessionId: bigint): Promise<void> {
  await executor
    .update(operatorSessions)
    .set({ lastSeenAt: sql`now()` })
    .where(
      and(
        eq(operatorSessions.id, sessionId),
        sql`${operatorSessions.lastSeenAt} < now() - interval '30 seconds'`,
      ),
    );
}

export async function endOperatorSessionByToken(
  executor: Executor,
  siteId: bigint,
  tokenHash: string,
): Promise<void> {
  await executor
    .update(operatorSessions)
    .set({ endedAt: sql`now()` })
    .where(
      and(
        eq(operatorSessions.tokenHash, tokenHash),
        eq(operatorSessions.siteId, siteId),
        isNull(operatorSessions.endedAt),
      ),
    );
}

export async function endOperatorSessions(tx: Executor, operatorId: bigint): Promise<void> {
  await tx
    .update(operatorSessions)
    .set({ endedAt: sql`now()` })
    .where(and(eq(operatorSessions.operatorId, operatorId), isNull(operatorSessions.endedAt)));
}

// ---------------------------------------------------------------------------------------------
// Recovery codes

export async function countUnusedRecoveryCodes(executor: Executor, operatorId: bigint): Promise<number> {
  const [row] = await rowsOf<{ count: number }>(
    executor,
    sql`SELECT count(*)::int AS count FROM operator_recovery_codes
        WHERE operator_id = ${operatorId.toString()}::bigint AND used_at IS NULL`,
  );
  return Number(row?.count ?? 0);
}

export async function deleteUnusedRecoveryCodes(tx: Executor, operatorId: bigint): Promise<void> {
  await tx.execute(sql`DELETE FROM operator_recovery_codes
                         WHERE operator_id = ${operatorId.toString()}::bigint AND used_at IS NULL`);
}

export async function insertRecoveryCode(tx: Executor, operatorId: bigint, codeHash: string): Promise<void> {
  await tx.execute(sql`INSERT INTO operator_recovery_codes (operator_id, code_hash)
                           VALUES (${operatorId.toString()}::bigint, ${codeHash})`);
}

// ---------------------------------------------------------------------------------------------
// The first owner's setup links

/** Active sites without any operator, with one of their hosts. */
export async function findSitesWithoutOperator(
  executor: Executor,
): Promise<{ id: string; code: string; host: string | null }[]> {
  return rowsOf<{ id: string; code: string; host: string | null }>(
    executor,
    sql`SELECT s.id::text, s.code, (SELECT d.host FROM site_domains d WHERE d.site_id = s.id ORDER BY d.host LIMIT 1) AS host
          FROM sites s
         WHERE s.status = 1 AND NOT EXISTS (SELECT 1 FROM operators o WHERE o.site_id = s.id)
         ORDER BY s.id`,
  );
}

/** Ends the site's unused setup links and stores a new one valid for `hours`. */
export async function replaceSetupToken(
  tx: Executor,
  link: { siteId: bigint; tokenHash: string; totpSecret: string; hours: number },
): Promise<void> {
  await tx
    .update(operatorSetupTokens)
    .set({ expiresAt: sql`now()` })
    .where(and(eq(operatorSetupTokens.siteId, link.siteId), isNull(operatorSetupTokens.usedAt)));
  await tx.insert(operatorSetupTokens).values({
    siteId: link.siteId,
    tokenHash: link.tokenHash,
    totpSecret: link.totpSecret,
    expiresAt: sql`now() + make_interval(hours => ${link.hours})`,
  });
}

/** The site's unused, unexpired setup link with this hash (locked when `lock`). */
export async function findUsableSetupToken(
  executor: Executor,
  siteId: bigint,
  tokenHash: string,
  lock: boolean,
) {
  const query = executor
    .select()
    .from(operatorSetupTokens)
    .where(
      and(
        eq(operatorSetupTokens.tokenHash, tokenHash),
        eq(operatorSetupTokens.siteId, siteId),
        isNull(operatorSetupTokens.usedAt),
        gt(operatorSetupTokens.expiresAt, sql`now()`),
      ),
    )
    .limit(1);
  const [row] = lock ? await query.for('no key update') : await query;
  return row;
}

/** Serialises the setups of one site (two links spent at once create one owner). */
export async function lockSite(tx: Executor, siteId: bigint): Promise<void> {
  await tx.execute(sql`SELECT id FROM sites WHERE id = ${siteId.toString()}::bigint FOR NO KEY UPDATE`);
}

export async function markSetupTokenUsed(tx: Executor, tokenId: bigint): Promise<void> {
  await tx.update(operatorSetupTokens).set({ usedAt: sql`now()` }).where(eq(operatorSetupTokens.id, tokenId));
}

// ---------------------------------------------------------------------------------------------
// The audit log

export type TAuditRow = {
  id: string;
  at: string;
  operator: string;
  action: string;
  member_id: string | null;
  username: string | null;
  entity: string | null;
  entity_id: string | null;
  before: unknown;
  after: unknown;
  ip: string | null;
  total: number;
};

export type TAuditFilter = {
  operator?: string | undefined;
  action?: string | undefined;
  entity?: string | undefined;
  entity_id?: string | undefined;
  member_id?: string | number | undefined;
};

/** The site's audit entries, newest first, each with the count of every entry the filter matches. */
export async function findAuditPage(
  executor: Executor,
  siteId: bigint,
  query: TAuditFilter,
  page: { limit: number; offset: number },
): Promise<TAuditRow[]> {
  const conditions: SQL[] = [sql`a.site_id = ${siteId.toString()}::bigint`];
  if (query.operator) conditions.push(sql`o.username_lower = ${query.operator.toLowerCase()}`);
  if (query.action) conditions.push(sql`a.action LIKE ${`${query.action.replace(/[%_\\]/g, '\\$&')}%`}`);
  if (query.entity) conditions.push(sql`a.entity = ${query.entity}`);
  if (query.entity_id) conditions.push(sql`a.entity_id = ${query.entity_id}`);
  if (query.member_id) conditions.push(sql`a.member_id = ${query.member_id}::bigint`);
  return rowsOf<TAuditRow>(
    executor,
    sql`SELECT a.id::text, to_char(a.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS at,
               o.username AS operator, a.action, a.member_id::text, m.username, a.entity, a.entity_id,
               a.before, a.after, a.ip, count(*) OVER ()::int AS total
          FROM operator_actions a
          JOIN operators o ON o.id = a.operator_id
          LEFT JOIN members m ON m.id = a.member_id
         WHERE ${sql.join(conditions, sql` AND `)}
         ORDER BY a.id DESC LIMIT ${page.limit} OFFSET ${page.offset}`,
  );
}

export type TChainRow = { id: string; seq: string; prev_hash: string; hash: string; expected_hash: string };

/** The site's next `limit` chain entries after `afterSeq`, each with the hash its content gives now. */
export async function findChainEntries(
  executor: Executor,
  siteId: bigint,
  afterSeq: bigint,
  limit: number,
): Promise<TChainRow[]> {
  return rowsOf<TChainRow>(
    executor,
    sql`SELECT a.id::text, a.chain_seq::text AS seq, a.prev_hash, a.hash,
                 operator_action_hash(a.prev_hash, operator_action_content(
                   a.chain_seq, a.id, a.site_id, a.operator_id, a.member_id, a.action, a.entity,
                   a.entity_id, a.details, a.before, a.after, a.ip, a.created_at)) AS expected_hash
            FROM operator_actions a
           WHERE a.site_id = ${siteId.toString()}::bigint AND a.chain_seq > ${afterSeq.toString()}::bigint
           ORDER BY a.chain_seq LIMIT ${limit}`,
  );
}

export async function findChainHead(
  executor: Executor,
  siteId: bigint,
): Promise<{ last_seq: string; last_hash: string } | undefined> {
  const [head] = await rowsOf<{ last_seq: string; last_hash: string }>(
    executor,
    sql`SELECT last_seq::text, last_hash FROM operator_action_chain_heads WHERE site_id = ${siteId.toString()}::bigint`,
  );
  return head;
}
