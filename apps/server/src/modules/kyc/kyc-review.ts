import { roleCan, type TAdminKycReview, type TKycCheck, type TKycDocumentKind } from '@sorte/contract';
import { recordOperatorAction, type TOperatorAuth } from '../../core/audit.ts';
import { maskCpf } from '../../core/pii-masks.ts';
import type { Db } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import { forceOffline } from '../sessions/sessions.service.ts';
import { addPassedCheck, insertCheck, updateSession } from './kyc.repo.ts';
import { documentAad, type KycVault } from './kyc.vault.ts';
import {
  findDocument,
  findDocumentsOf,
  findReviewQueue,
  lockSiteSession,
  type TReviewRow,
} from './kyc-documents.repo.ts';

/**
 * The back office's verification queue (ADR 036 §8): the sessions the provider sent to the
 * operator's manual review, with the player's identity (masked without players.pii, as every
 * back-office answer) and the list of stored documents; opening a document and deciding need
 * kyc.documents. Every opening and every decision is an entry of the audit chain, written in the
 * transaction of what it records.
 */

const QUEUE_LIMIT = 100;

const checksOf = (value: TReviewRow['passed_checks']): TKycCheck[] =>
  (Array.isArray(value)
    ? value
    : String(value ?? '')
        .replace(/[{}]/g, '')
        .split(',')
  ).filter(Boolean) as TKycCheck[];

const iso = (value: unknown): string | null =>
  value === null || value === undefined ? null : new Date(String(value)).toISOString();

function reviewFor(row: TReviewRow, documents: TAdminKycReview['documents'], pii: boolean): TAdminKycReview {
  return {
    session_id: row.session_id,
    status: row.status as TAdminKycReview['status'],
    member_id: Number(row.member_id),
    username: row.username,
    realname: row.realname,
    cpf: row.cpf === null ? null : pii ? row.cpf : maskCpf(row.cpf),
    // The year alone without players.pii: enough to see an adult, not enough to identify anyone.
    birth_date: row.birth_date === null ? null : pii ? row.birth_date : `${row.birth_date.slice(0, 4)}-**-**`,
    pep: row.pep === true,
    passed_checks: checksOf(row.passed_checks),
    review_requested_at: iso(row.review_requested_at),
    documents_error: row.documents_error,
    documents,
  };
}

/** `GET /api/admin/kyc/reviews`: the operator's site's sessions in manual review, oldest first. */
export async function listReviews(db: Db, operator: TOperatorAuth): Promise<{ list: TAdminKycReview[] }> {
  const rows = await findReviewQueue(db, operator.siteId, QUEUE_LIMIT);
  const documents = await findDocumentsOf(
    db,
    rows.map((row) => BigInt(row.session_id)),
  );
  const pii = roleCan(operator.role, 'players.pii');
  return {
    list: rows.map((row) =>
      reviewFor(
        row,
        documents
          .filter((document) => document.sessionId.toString() === row.session_id)
          .map((document) => ({
            id: document.id.toString(),
            kind: document.kind as TKycDocumentKind,
            content_type: document.contentType,
            size_bytes: document.sizeBytes,
          })),
        pii,
      ),
    ),
  };
}

/**
 * `GET /api/admin/kyc/documents/:id`: one document of the operator's site, decrypted for this
 * answer only; the opening is recorded in the audit chain first (no entry, no image).
 */
export async function openDocument(
  db: Db,
  vault: KycVault,
  operator: TOperatorAuth,
  documentId: bigint,
): Promise<{ contentType: string; bytes: Buffer }> {
  const row = await findDocument(db, operator.siteId, documentId);
  if (!row) throw new AppError('KYC_DOCUMENT_NOT_FOUND');
  const bytes = vault.open(row, documentAad(row.sessionId, row.kind as TKycDocumentKind));
  await recordOperatorAction(
    db,
    operator,
    'kyc.document_view',
    { memberId: row.memberId, entity: 'kyc_document', entityId: row.id.toString() },
    null,
    { session_id: row.sessionId.toString(), kind: row.kind },
  );
  return { contentType: row.contentType, bytes };
}

/**
 * `POST /api/admin/kyc/reviews/:id/decision`: approves (the identity check passes) or rejects
 * (it fails, and every session of the player ends at once in every process) a session of the
 * operator's site that is in manual review, with the reason, in one transaction with its audit
 * entry. A session already decided, or of another site, changes nothing.
 */
export async function decideReview(
  db: Db,
  operator: TOperatorAuth,
  sessionId: bigint,
  decision: 'approve' | 'reject',
  reason: string,
): Promise<{ session_id: string; status: 'approved' | 'rejected'; sessions_ended: number }> {
  return db.transaction(async (tx) => {
    const session = await lockSiteSession(tx, operator.siteId, sessionId);
    if (!session) throw new AppError('KYC_REVIEW_NOT_FOUND');
    if (session.status === 'approved' || session.status === 'rejected')
      throw new AppError('KYC_REVIEW_CLOSED');
    if (session.status !== 'manual_review') throw new AppError('KYC_REVIEW_NOT_FOUND');
    const status = decision === 'approve' ? 'approved' : 'rejected';
    const member = { siteId: session.siteId, memberId: session.memberId };
    // The player reads a rejection's reason on their card; an approval's note stays in the record.
    await updateSession(tx, session.id, { status, reason: status === 'rejected' ? reason : null });
    await insertCheck(tx, {
      ...member,
      checkKind: 'identity',
      outcome: status === 'approved' ? 'passed' : 'failed',
      reason,
      sessionId: session.id,
      source: 'operator',
    });
    let ended = 0;
    if (status === 'approved') await addPassedCheck(tx, member, 'identity');
    else ended = await forceOffline(tx, session.siteId, session.memberId);
    await recordOperatorAction(
      tx,
      operator,
      `kyc.${decision}`,
      { memberId: session.memberId, entity: 'kyc_session', entityId: session.id.toString() },
      { status: session.status },
      { status, reason, sessions_ended: ended },
    );
    return { session_id: session.id.toString(), status, sessions_ended: ended };
  });
}
