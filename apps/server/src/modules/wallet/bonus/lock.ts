import type { Tx } from '../../../db/client.ts';
import { WalletError } from '../wallet.errors.ts';
import { type TTransferRaw, transferResultOf } from '../wallet.repo.ts';
import type { TransferResult, TWalletAccountRow } from '../wallet.schema.ts';
import type { TLockedAccounts } from '../wallet.service.ts';
import { type BonusGrant, toGrant } from './grant-model.ts';
import { lockMoveRows, type TGrantRaw } from './grants.repo.ts';

/** What a stake or a win decides on, read under its locks in one statement (`lockForMove`). */
export type TMoveState = {
  accounts: TLockedAccounts;
  balances: { cashMinor: bigint; bonusMinor: bigint };
  transfers: Map<string, TransferResult>;
  grants: BonusGrant[];
};

/**
 * The reads of a stake or a win in ONE statement: locks the member's cash and bonus accounts (id
 * order) and, with `grants`, then their active grants (expiry, id order: the lock order of every
 * bonus path); reads the site's system accounts and the transfers holding `keys`. The accounts come
 * back as `TLockedAccounts` for `transferLocked`, which keeps their balances current.
 */
export async function lockForMove(
  tx: Tx,
  siteId: bigint,
  memberId: bigint,
  keys: readonly string[],
  options: { grants: boolean },
): Promise<TMoveState> {
  const rows = await lockMoveRows(tx, siteId, memberId, keys, options);
  const accounts: TLockedAccounts = { siteId, memberId, member: [], system: [] };
  const transfers = new Map<string, TransferResult>();
  const grants: BonusGrant[] = [];
  for (const { what, row } of rows) {
    if (what === 'account') accounts.member.push(accountOf(row));
    else if (what === 'system') accounts.system.push(accountOf(row));
    else if (what === 'transfer') {
      const found = transferResultOf(row as unknown as TTransferRaw, true);
      transfers.set(found.idempotencyKey, found);
    } else grants.push(toGrant(row as unknown as TGrantRaw));
  }
  return { accounts, balances: playableOf(accounts), transfers, grants };
}

function accountOf(r: Record<string, unknown>): TWalletAccountRow {
  return {
    id: BigInt(String(r.id)),
    siteId: BigInt(String(r.site_id)),
    memberId: r.member_id === null ? null : BigInt(String(r.member_id)),
    kind: r.kind as TWalletAccountRow['kind'],
    balanceMinor: r.balance_minor === null ? null : BigInt(String(r.balance_minor)),
    wageringRequiredMinor:
      r.wagering_required_minor === null ? null : BigInt(String(r.wagering_required_minor)),
    createdAt: new Date(Number(r.created_ms)),
  };
}

/** Cash and bonus of locked accounts (ACCOUNT_NOT_FOUND when the member has none on the site). */
export function playableOf(accounts: TLockedAccounts): { cashMinor: bigint; bonusMinor: bigint } {
  const cash = accounts.member.find((a) => a.kind === 'cash');
  const bonus = accounts.member.find((a) => a.kind === 'bonus');
  if (!cash || !bonus || cash.balanceMinor === null || bonus.balanceMinor === null) {
    throw new WalletError('ACCOUNT_NOT_FOUND', 'The member has no wallet accounts on this site', {
      memberId: accounts.memberId.toString(),
    });
  }
  return { cashMinor: cash.balanceMinor, bonusMinor: bonus.balanceMinor };
}
