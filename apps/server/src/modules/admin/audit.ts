import type { TAdminAuditEntry, TAdminAuditQuery, TAuditChainReport } from '@sorte/contract';
import { sql } from 'drizzle-orm';
import type { TOperatorAuth } from '../../core/audit.ts';
import type { Executor } from '../../db/client.ts';
import { rowsOf } from '../wallet/wallet.repo.ts';
import { pageOf, type TCsvColumn } from './csv.ts';

type TAuditRow = {
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

/** CSV columns of the audit export (before/after as JSON text). */
export const AUDIT_COLUMNS: TCsvColumn<TAdminAuditEntry>[] = [
  { header: 'at', value: (row) => row.at },
  { header: 'operator', value: (row) => row.operator },
  { header: 'action', value: (row) => row.action },
  { header: 'player', value: (row) => row.username },
  { header: 'entity', value: (row) => row.entity },
  { header: 'entity_id', value: (row) => row.entity_id },
  { header: 'before', value: (row) => (row.before === null ? '' : JSON.stringify(row.before)) },
  { header: 'after', value: (row) => (row.after === null ? '' : JSON.stringify(row.after)) },
  { header: 'ip', value: (row) => row.ip },
];

/** The audit log of the operator's site, newest first, filtered and paged (or every row for CSV). */
export async function auditLog(executor: Executor, operator: TOperatorAuth, query: TAdminAuditQuery) {
  const page = pageOf(query);
  const conditions = [sql`a.site_id = ${operator.siteId.toString()}::bigint`];
  if (query.operator) conditions.push(sql`o.username_lower = ${query.operator.toLowerCase()}`);
  if (query.action) conditions.push(sql`a.action LIKE ${`${query.action.replace(/[%_\\]/g, '\\$&')}%`}`);
  if (query.entity) conditions.push(sql`a.entity = ${query.entity}`);
  if (query.entity_id) conditions.push(sql`a.entity_id = ${query.entity_id}`);
  if (query.member_id) conditions.push(sql`a.member_id = ${query.member_id}::bigint`);
  const rows = await rowsOf<TAuditRow>(
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
  const list: TAdminAuditEntry[] = rows.map(({ total: _total, ...row }) => ({
    ...row,
    before: row.before ?? null,
    after: row.after ?? null,
  }));
  return { page, list, total: rows[0]?.total ?? 0 };
}

type TChainBreakReason = NonNullable<TAuditChainReport['broken']>['reason'];

const GENESIS_HASH = '0'.repeat(64);
const VERIFY_BATCH = 1000;

type TChainRow = { id: string; seq: string; prev_hash: string; hash: string; expected_hash: string };

/**
 * Walks the site's audit hash chain (migration 0044, ADR 022) in chain order, in batches: every
 * entry must sit at the next place, point at the previous entry's hash, and its stored hash must
 * equal sha256(prev_hash, canonical content) recomputed from what the row says now; the chain head
 * must point at the last entry. Reports the first broken link (or intact and how many entries).
 */
export async function verifyAuditChain(executor: Executor, siteId: bigint): Promise<TAuditChainReport> {
  let previousHash = GENESIS_HASH;
  let previousSeq = 0n;
  let entries = 0;
  for (;;) {
    const rows = await rowsOf<TChainRow>(
      executor,
      sql`SELECT a.id::text, a.chain_seq::text AS seq, a.prev_hash, a.hash,
                 operator_action_hash(a.prev_hash, operator_action_content(
                   a.chain_seq, a.id, a.site_id, a.operator_id, a.member_id, a.action, a.entity,
                   a.entity_id, a.details, a.before, a.after, a.ip, a.created_at)) AS expected_hash
            FROM operator_actions a
           WHERE a.site_id = ${siteId.toString()}::bigint AND a.chain_seq > ${previousSeq.toString()}::bigint
           ORDER BY a.chain_seq LIMIT ${VERIFY_BATCH}`,
    );
    for (const row of rows) {
      const seq = BigInt(row.seq);
      const broken = (reason: TChainBreakReason, expected: string, stored: string): TAuditChainReport => ({
        intact: false,
        entries,
        head_hash: previousHash,
        broken: { id: row.id, seq: row.seq, reason, expected, stored },
      });
      if (seq !== previousSeq + 1n) return broken('sequence_gap', (previousSeq + 1n).toString(), row.seq);
      if (row.prev_hash !== previousHash) return broken('prev_hash_mismatch', previousHash, row.prev_hash);
      if (row.hash !== row.expected_hash) return broken('hash_mismatch', row.expected_hash, row.hash);
      previousHash = row.hash;
      previousSeq = seq;
      entries += 1;
    }
    if (rows.length < VERIFY_BATCH) break;
  }
  const [head] = await rowsOf<{ last_seq: string; last_hash: string }>(
    executor,
    sql`SELECT last_seq::text, last_hash FROM operator_action_chain_heads WHERE site_id = ${siteId.toString()}::bigint`,
  );
  const headSeq = head?.last_seq ?? '0';
  const headHash = head?.last_hash ?? GENESIS_HASH;
  if (headSeq !== previousSeq.toString() || headHash !== previousHash) {
    return {
      intact: false,
      entries,
      head_hash: previousHash,
      broken: {
        id: null,
        seq: headSeq,
        reason: 'head_mismatch',
        expected: `${headSeq}:${headHash}`,
        stored: `${previousSeq}:${previousHash}`,
      },
    };
  }
  return { intact: true, entries, head_hash: previousHash, broken: null };
}
