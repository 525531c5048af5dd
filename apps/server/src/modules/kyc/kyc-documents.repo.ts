import type { TKycDocumentKind } from '@sorte/contract';
import { and, asc, eq, gt, inArray, isNull, lt, sql } from 'drizzle-orm';
import type { TSite } from '../../core/site.ts';
import type { Executor } from '../../db/client.ts';
import { rowsOf } from '../../db/sql.ts';
import type { TKycSessionRow } from './kyc.repo.ts';
import { kycCpfLookups, kycDocuments, kycProfileSettings, kycSessions } from './kyc.schema.ts';
import type { TSealed } from './kyc.vault.ts';

/**
 * SQL of the documents a provider sends to manual review, the back-office queue, the retention
 * purge and the sign-up CPF lookups; every function takes the executor (or transaction) it runs in.
 */

export type TKycProfileSettings = typeof kycProfileSettings.$inferSelect;

export async function findProfileSettings(
  executor: Executor,
  jurisdiction: TSite['jurisdiction'],
): Promise<TKycProfileSettings | null> {
  const [row] = await executor
    .select()
    .from(kycProfileSettings)
    .where(eq(kycProfileSettings.jurisdiction, jurisdiction))
    .limit(1);
  return row ?? null;
}

/** How long the provider may take to hand a reviewed session's files over before we stop asking. */
const FETCH_WINDOW = sql`interval '1 day'`;

/** Sessions in manual review whose documents are not stored yet (oldest first), across sites. */
export async function findSessionsAwaitingDocuments(
  executor: Executor,
  limit: number,
): Promise<TKycSessionRow[]> {
  return executor
    .select()
    .from(kycSessions)
    .where(
      and(
        eq(kycSessions.status, 'manual_review'),
        isNull(kycSessions.documentsFetchedAt),
        gt(kycSessions.reviewRequestedAt, sql`now() - ${FETCH_WINDOW}`),
      ),
    )
    .orderBy(asc(kycSessions.reviewRequestedAt))
    .limit(limit);
}

export type TNewDocument = TSealed & {
  sessionId: bigint;
  siteId: bigint;
  memberId: bigint;
  kind: TKycDocumentKind;
  contentType: string;
  sizeBytes: number;
};

/** Stores a session's files (all or none: one statement) and marks them fetched; idempotent. */
export async function insertDocuments(tx: Executor, documents: readonly TNewDocument[]): Promise<void> {
  if (documents.length > 0)
    await tx
      .insert(kycDocuments)
      .values([...documents])
      .onConflictDoNothing();
  const sessionId = documents[0]?.sessionId;
  if (sessionId !== undefined) await markDocumentsFetch(tx, sessionId, { error: null, done: true });
}

/**
 * Records a fetch's outcome: `error` null when stored, else why nothing was (the queue shows it);
 * `done` stops the job asking again (documents_fetched_at set).
 */
export async function markDocumentsFetch(
  executor: Executor,
  sessionId: bigint,
  outcome: { error: string | null; done: boolean },
): Promise<void> {
  await executor
    .update(kycSessions)
    .set({ documentsError: outcome.error, ...(outcome.done ? { documentsFetchedAt: new Date() } : {}) })
    .where(eq(kycSessions.id, sessionId));
}

export type TReviewRow = {
  session_id: string;
  status: string;
  member_id: string;
  username: string;
  realname: string;
  cpf: string | null;
  birth_date: string | null;
  pep: boolean | null;
  passed_checks: string[] | string | null;
  review_requested_at: unknown;
  documents_error: string | null;
};

const REVIEW_COLUMNS = sql`s.id::text AS session_id, s.status, s.member_id::text AS member_id,
  m.username, m.realname, m.cpf, to_char(m.birth_date, 'YYYY-MM-DD') AS birth_date, k.pep,
  k.passed_checks, s.review_requested_at, s.documents_error`;

/** The site's sessions waiting for the operator's review, oldest request first. */
export async function findReviewQueue(
  executor: Executor,
  siteId: bigint,
  limit: number,
): Promise<TReviewRow[]> {
  return rowsOf<TReviewRow>(
    executor,
    sql`SELECT ${REVIEW_COLUMNS}
          FROM kyc_sessions s JOIN members m ON m.id = s.member_id
          LEFT JOIN member_kyc k ON k.member_id = s.member_id
         WHERE s.site_id = ${siteId.toString()}::bigint AND s.status = 'manual_review'
         ORDER BY s.review_requested_at, s.id LIMIT ${limit}`,
  );
}

export type TDocumentMeta = {
  id: bigint;
  sessionId: bigint;
  kind: string;
  contentType: string;
  sizeBytes: number;
};

/** The stored files of these sessions (what each is, never its bytes). */
export async function findDocumentsOf(
  executor: Executor,
  sessionIds: readonly bigint[],
): Promise<TDocumentMeta[]> {
  if (sessionIds.length === 0) return [];
  return executor
    .select({
      id: kycDocuments.id,
      sessionId: kycDocuments.sessionId,
      kind: kycDocuments.kind,
      contentType: kycDocuments.contentType,
      sizeBytes: kycDocuments.sizeBytes,
    })
    .from(kycDocuments)
    .where(inArray(kycDocuments.sessionId, [...sessionIds]))
    .orderBy(asc(kycDocuments.id));
}

export type TDocumentRow = typeof kycDocuments.$inferSelect;

/** One stored file of the site, sealed as it is kept. */
export async function findDocument(
  executor: Executor,
  siteId: bigint,
  documentId: bigint,
): Promise<TDocumentRow | null> {
  const [row] = await executor
    .select()
    .from(kycDocuments)
    .where(and(eq(kycDocuments.id, documentId), eq(kycDocuments.siteId, siteId)))
    .limit(1);
  return row ?? null;
}

/** The site's session, locked for the operator's decision. */
export async function lockSiteSession(
  tx: Executor,
  siteId: bigint,
  sessionId: bigint,
): Promise<TKycSessionRow | null> {
  const [row] = await tx
    .select()
    .from(kycSessions)
    .where(and(eq(kycSessions.id, sessionId), eq(kycSessions.siteId, siteId)))
    .for('no key update')
    .limit(1);
  return row ?? null;
}

/**
 * Deletes the documents whose retention has run out: `document_retain_days` of the site's
 * profile counted from the later of the session's decision and the account's closure. Documents
 * of an undecided session or of an open account are kept (they are the record of how the account
 * was identified). Returns how many were deleted.
 */
export async function deleteExpiredDocuments(executor: Executor, limit: number): Promise<number> {
  const rows = await rowsOf<{ id: string }>(
    executor,
    sql`DELETE FROM kyc_documents WHERE id IN (
          SELECT d.id FROM kyc_documents d
            JOIN kyc_sessions s ON s.id = d.session_id
            JOIN members m ON m.id = d.member_id
            JOIN sites st ON st.id = d.site_id
            JOIN kyc_profile_settings p ON p.jurisdiction = st.jurisdiction
           WHERE s.decided_at IS NOT NULL AND m.deleted_at IS NOT NULL
             AND GREATEST(s.decided_at, m.deleted_at) + make_interval(days => p.document_retain_days) < now()
           LIMIT ${limit})
        RETURNING id::text AS id`,
  );
  return rows.length;
}

/** Whether an account of the site already has this CPF. */
export async function cpfHasAccount(executor: Executor, siteId: bigint, cpf: string): Promise<boolean> {
  const rows = await rowsOf<{ one: number }>(
    executor,
    sql`SELECT 1 AS one FROM members WHERE site_id = ${siteId.toString()}::bigint AND cpf = ${cpf} LIMIT 1`,
  );
  return rows.length > 0;
}

/** Serialises the lookups of one address on a site until the transaction ends (the count holds). */
export async function lockLookups(tx: Executor, siteId: bigint, ip: string): Promise<void> {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(727036, hashtext(${`${siteId}:${ip}`}))`);
}

/** The site's lookups in the last hour from this address, and of this CPF from anywhere. */
export async function countRecentLookups(
  executor: Executor,
  siteId: bigint,
  ip: string,
  cpfDigest: string,
): Promise<{ byIp: number; byCpf: number }> {
  const rows = await rowsOf<{ by_ip: string; by_cpf: string }>(
    executor,
    sql`SELECT count(*) FILTER (WHERE ip = ${ip})::text AS by_ip,
               count(*) FILTER (WHERE cpf_digest = ${cpfDigest})::text AS by_cpf
          FROM kyc_cpf_lookups
         WHERE site_id = ${siteId.toString()}::bigint AND created_at > now() - interval '1 hour'
           AND (ip = ${ip} OR cpf_digest = ${cpfDigest})`,
  );
  return { byIp: Number(rows[0]?.by_ip ?? 0), byCpf: Number(rows[0]?.by_cpf ?? 0) };
}

/** Counts one lookup; rows older than a day go on the way (the limits look back an hour). */
export async function insertLookup(
  executor: Executor,
  lookup: { siteId: bigint; ip: string; cpfDigest: string },
): Promise<void> {
  await executor.delete(kycCpfLookups).where(lt(kycCpfLookups.createdAt, sql`now() - interval '1 day'`));
  await executor.insert(kycCpfLookups).values(lookup);
}

/** Up to `limit` documents sealed under one of `keyIds` (a retired key), oldest first. */
export async function findDocumentsUnderKeys(
  executor: Executor,
  keyIds: readonly string[],
  limit: number,
): Promise<TDocumentRow[]> {
  if (keyIds.length === 0) return [];
  return executor
    .select()
    .from(kycDocuments)
    .where(inArray(kycDocuments.keyId, [...keyIds]))
    .orderBy(asc(kycDocuments.id))
    .limit(limit);
}

/**
 * Replaces a document's sealed bytes with the same file sealed under another key, only while the
 * row is still under the key it was read with (another process's rekey got there first: nothing
 * changes). Returns whether it changed the row.
 */
export async function resealDocument(
  executor: Executor,
  row: { id: bigint; keyId: string },
  sealed: TSealed,
): Promise<boolean> {
  const changed = await executor
    .update(kycDocuments)
    .set({ keyId: sealed.keyId, iv: sealed.iv, authTag: sealed.authTag, ciphertext: sealed.ciphertext })
    .where(and(eq(kycDocuments.id, row.id), eq(kycDocuments.keyId, row.keyId)))
    .returning({ id: kycDocuments.id });
  return changed.length === 1;
}
