import type { TCreateOperatorRequest, TOperatorAccount, TOperatorSecretResponse } from '@sorte/contract';
import { and, eq } from 'drizzle-orm';
import { recordOperatorAction, type TOperatorAuth } from '../../core/audit.ts';
import type { TSite } from '../../core/site.ts';
import type { Executor } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import { newTotpSecret, totpQrDataUrl, totpUri } from '../security/totp.ts';
import { hashSecret } from '../sessions/passwords.ts';
import { deleteUnusedRecoveryCodes, endOperatorSessions, findSiteOperatorsPage } from './admin.repo.ts';
import { operators, type TOperatorRow } from './admin.schema.ts';
import { pageOf } from './csv.ts';

function view(row: TOperatorRow): TOperatorAccount {
  return {
    id: Number(row.id),
    username: row.username,
    role: row.role,
    status: row.status,
    created_at: row.createdAt.toISOString(),
    last_login_at: row.lastLoginAt?.toISOString() ?? null,
  };
}

/** The state of an operator the audit log keeps (never the password or the secret). */
const audited = (row: TOperatorRow) => ({ username: row.username, role: row.role, status: row.status });

async function withSecret(site: TSite, row: TOperatorRow, secret: string): Promise<TOperatorSecretResponse> {
  const uri = totpUri(`${site.name} back office`, row.username, secret);
  return { operator: view(row), totp_secret: secret, otpauth_uri: uri, qr_code: await totpQrDataUrl(uri) };
}

/** The operators of the owner's site, newest first. */
export async function listOperators(
  executor: Executor,
  owner: TOperatorAuth,
  query: { page?: number; page_size?: number },
) {
  const page = pageOf(query);
  const { rows, total } = await findSiteOperatorsPage(executor, owner.siteId, page);
  return {
    list: rows.map(view),
    total,
    page: page.page,
    page_size: page.pageSize,
  };
}

/** A new operator of the site with its own authenticator (the secret is shown once). */
export async function createOperator(
  executor: Executor,
  site: TSite,
  owner: TOperatorAuth,
  input: TCreateOperatorRequest,
): Promise<TOperatorSecretResponse> {
  const secret = newTotpSecret();
  const passwordHash = await hashSecret(input.password);
  const row = await executor.transaction(async (tx) => {
    const [created] = await tx
      .insert(operators)
      .values({
        siteId: owner.siteId,
        username: input.username,
        passwordHash,
        role: input.role,
        status: 1,
        totpSecret: secret,
        createdBy: owner.operatorId,
      })
      .onConflictDoNothing()
      .returning();
    if (!created)
      throw new AppError('USERNAME_TAKEN', { fieldErrors: { username: 'errors.USERNAME_TAKEN' } });
    await recordOperatorAction(
      tx,
      owner,
      'operator.create',
      { entity: 'operator', entityId: created.id.toString() },
      null,
      audited(created),
    );
    return created;
  });
  return withSecret(site, row, secret);
}

async function lockOperator(tx: Executor, owner: TOperatorAuth, id: number): Promise<TOperatorRow> {
  const [row] = await tx
    .select()
    .from(operators)
    .where(and(eq(operators.id, BigInt(id)), eq(operators.siteId, owner.siteId)))
    .for('no key update');
  if (!row) throw new AppError('NOT_FOUND');
  return row;
}

async function endSessions(tx: Executor, operatorId: bigint): Promise<void> {
  await endOperatorSessions(tx, operatorId);
}

/** A new authenticator secret for an operator (lost phone): their sessions end; shown once. */
export async function resetOperatorTotp(
  executor: Executor,
  site: TSite,
  owner: TOperatorAuth,
  id: number,
): Promise<TOperatorSecretResponse> {
  const secret = newTotpSecret();
  const row = await executor.transaction(async (tx) => {
    const before = await lockOperator(tx, owner, id);
    const [after] = await tx
      .update(operators)
      .set({ totpSecret: secret })
      .where(eq(operators.id, before.id))
      .returning();
    await endSessions(tx, before.id);
    // Codes issued for the old authenticator go with it.
    await deleteUnusedRecoveryCodes(tx, before.id);
    await recordOperatorAction(
      tx,
      owner,
      'operator.reset_totp',
      { entity: 'operator', entityId: before.id.toString() },
      audited(before),
      { ...audited(after!), sessions_ended: true },
    );
    return after!;
  });
  return withSecret(site, row, secret);
}

/** Disables (its sessions end) or re-enables an operator; an owner cannot disable themself. */
export async function setOperatorStatus(
  executor: Executor,
  owner: TOperatorAuth,
  id: number,
  status: 0 | 1,
): Promise<TOperatorAccount> {
  if (BigInt(id) === owner.operatorId) throw new AppError('FORBIDDEN');
  return executor.transaction(async (tx) => {
    const before = await lockOperator(tx, owner, id);
    const [after] = await tx.update(operators).set({ status }).where(eq(operators.id, before.id)).returning();
    if (status === 0) await endSessions(tx, before.id);
    await recordOperatorAction(
      tx,
      owner,
      status === 0 ? 'operator.disable' : 'operator.enable',
      { entity: 'operator', entityId: before.id.toString() },
      audited(before),
      audited(after!),
    );
    return view(after!);
  });
}
