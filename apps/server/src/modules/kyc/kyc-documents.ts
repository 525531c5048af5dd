import { KYC_DOCUMENT_KINDS, type TKycDocumentKind } from '@sorte/contract';
import type { Db } from '../../db/client.ts';
import {
  DocumentTooLarge,
  type KycGateway,
  MAX_KYC_DOCUMENT_BYTES,
  type TProviderDocument,
} from './kyc.connection.ts';
import { findSessionByProviderId, type TKycSessionRow } from './kyc.repo.ts';
import { documentAad, type KycVault, sniffDocument } from './kyc.vault.ts';
import {
  deleteExpiredDocuments,
  findDocumentsUnderKeys,
  findSessionsAwaitingDocuments,
  insertDocuments,
  markDocumentsFetch,
  resealDocument,
  type TNewDocument,
} from './kyc-documents.repo.ts';

/**
 * The documents of a session the provider sent to manual review (ADR 036 §7): Sorte asks the
 * provider for them over its authenticated API, as Sumsub, idwall and Unico hand images over
 * (the webhook says only that a review is wanted; the files never travel in it). Each file's type
 * is read from its bytes (JPEG, PNG, PDF; a selfie is a photo) and its size is capped at 8 MB
 * while it is read; then it is sealed with AES-256-GCM and stored in the database, beside the
 * session it belongs to, all of a session's files in one statement or none.
 */

export type TDocumentDeps = { db: Db; kyc: KycGateway; vault: KycVault };

/** Why a session's files were not stored; the queue shows it, and nothing of them is kept. */
export type TDocumentsError = 'unsupported_type' | 'too_large' | 'missing' | 'provider_unavailable';

export class DocumentRefused extends Error {
  constructor(readonly reason: TDocumentsError) {
    super(`document refused: ${reason}`);
  }
}

/** A file's type by its content, or the reason it is refused (a selfie must be a photo). */
export function checkDocument(
  kind: TKycDocumentKind,
  bytes: Buffer,
): { contentType: string } | { refused: TDocumentsError } {
  if (bytes.length === 0) return { refused: 'missing' };
  if (bytes.length > MAX_KYC_DOCUMENT_BYTES) return { refused: 'too_large' };
  const contentType = sniffDocument(bytes);
  if (!contentType || (kind === 'selfie' && contentType === 'application/pdf'))
    return { refused: 'unsupported_type' };
  return { contentType };
}

const isKind = (kind: string): kind is TKycDocumentKind =>
  (KYC_DOCUMENT_KINDS as readonly string[]).includes(kind);

async function downloadChecked(
  deps: TDocumentDeps,
  session: TKycSessionRow,
  listed: TProviderDocument,
): Promise<TNewDocument> {
  const connection = deps.kyc.attached;
  if (!connection || !isKind(listed.kind)) throw new DocumentRefused('provider_unavailable');
  let bytes: Buffer;
  try {
    bytes = await connection.fetchDocument(session.providerSessionId, listed.kind);
  } catch (error) {
    throw new DocumentRefused(error instanceof DocumentTooLarge ? 'too_large' : 'provider_unavailable');
  }
  const checked = checkDocument(listed.kind, bytes);
  if ('refused' in checked) throw new DocumentRefused(checked.refused);
  return {
    sessionId: session.id,
    siteId: session.siteId,
    memberId: session.memberId,
    kind: listed.kind,
    contentType: checked.contentType,
    sizeBytes: bytes.length,
    ...deps.vault.seal(bytes, documentAad(session.id, listed.kind)),
  };
}

/**
 * Fetches, checks, seals and stores one session's files; returns null when stored, else why not
 * (recorded on the session: a refused file keeps the whole set out, a provider error is retried
 * by the job until a day after the review was asked).
 */
export async function fetchSessionDocuments(
  deps: TDocumentDeps,
  session: TKycSessionRow,
): Promise<TDocumentsError | null> {
  const connection = deps.kyc.attached;
  let error: TDocumentsError | null = null;
  const documents: TNewDocument[] = [];
  try {
    if (!connection) throw new DocumentRefused('provider_unavailable');
    const listed = await connection.listDocuments(session.providerSessionId).catch(() => {
      throw new DocumentRefused('provider_unavailable');
    });
    // One file per kind (the provider's list may repeat one): at most three downloads of 8 MB.
    const wanted = KYC_DOCUMENT_KINDS.flatMap(
      (kind) => listed.find((document) => document.kind === kind) ?? [],
    );
    if (wanted.length === 0) throw new DocumentRefused('missing');
    for (const document of wanted) documents.push(await downloadChecked(deps, session, document));
  } catch (caught) {
    if (!(caught instanceof DocumentRefused)) throw caught;
    error = caught.reason;
  }
  if (error) {
    // A refused file will not change by asking again: the job stops asking (the operator decides
    // without it); an unreachable provider is asked again on the next tick.
    await markDocumentsFetch(deps.db, session.id, { error, done: error !== 'provider_unavailable' });
    return error;
  }
  await deps.db.transaction((tx) => insertDocuments(tx, documents));
  return null;
}

/**
 * After a webhook put a session in manual review: its files, unless they are stored already;
 * null when stored (or nothing to do), else why not.
 */
export async function documentsOfReview(
  deps: TDocumentDeps,
  provider: string,
  providerSessionId: string,
): Promise<TDocumentsError | null> {
  const session = await findSessionByProviderId(deps.db, provider, providerSessionId);
  if (session?.status !== 'manual_review' || session.documentsFetchedAt) return null;
  return fetchSessionDocuments(deps, session);
}

/** The job's tick: every session in manual review whose files are not stored yet (bounded). */
export async function fetchPendingDocuments(deps: TDocumentDeps): Promise<number> {
  const sessions = await findSessionsAwaitingDocuments(deps.db, 20);
  let stored = 0;
  for (const session of sessions) if ((await fetchSessionDocuments(deps, session)) === null) stored += 1;
  return stored;
}

/** The retention job's tick: deletes the documents past their profile's retention, in batches. */
export async function purgeExpiredDocuments(db: Db): Promise<number> {
  let total = 0;
  for (let batch = 0; batch < 50; batch += 1) {
    const deleted = await deleteExpiredDocuments(db, 200);
    total += deleted;
    if (deleted < 200) break;
  }
  return total;
}

/** Documents sealed again per statement batch by the rekey job. */
const REKEY_BATCH = 100;

/**
 * Seals again under the vault's current key every document still under a retired key
 * (KYC_DOCUMENT_KEYS_RETIRED), in batches: each is opened with its old key (its AAD checked) and
 * sealed with a fresh IV, the row changed only while still under the old key. Returns how many
 * were sealed again and how many stay under a retired key (a row that no longer opens is left
 * and counted: it is damaged or not ours, and an operator must look at it).
 */
export async function rekeyDocuments(
  db: Db,
  vault: KycVault,
  options: { batch?: number } = {},
): Promise<{ resealed: number; left: number }> {
  const batch = options.batch ?? REKEY_BATCH;
  const keyIds = vault.retiredKeyIds;
  const skipped = new Set<bigint>();
  let resealed = 0;
  for (;;) {
    const rows = (await findDocumentsUnderKeys(db, keyIds, batch + skipped.size)).filter(
      (row) => !skipped.has(row.id),
    );
    if (rows.length === 0) break;
    for (const row of rows) {
      const aad = documentAad(row.sessionId, row.kind as TKycDocumentKind);
      let bytes: Buffer;
      try {
        bytes = vault.open(row, aad);
      } catch {
        skipped.add(row.id);
        continue;
      }
      if (await resealDocument(db, row, vault.seal(bytes, aad))) resealed += 1;
    }
    if (rows.length < batch) break;
  }
  return { resealed, left: skipped.size };
}
