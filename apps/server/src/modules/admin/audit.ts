import type { TAdminAuditEntry, TAdminAuditQuery, TAuditChainReport } from '@sorte/contract';
import type { TOperatorAuth } from '../../core/audit.ts';
import type { Executor } from '../../db/client.ts';
import { findAuditPage, findChainEntries, findChainHead } from './admin.repo.ts';
import { pageOf, type TCsvColumn } from './csv.ts';

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
  const rows = await findAuditPage(executor, operator.siteId, query, page);
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
    const rows = await findChainEntries(executor, siteId, previousSeq, VERIFY_BATCH);
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
  const head = await findChainHead(executor, siteId);
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
