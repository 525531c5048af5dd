import type { Executor } from '../../db/client.ts';
import { WalletError } from './wallet.errors.ts';
import { insertMemberAccounts, insertSystemAccounts, memberExists, siteExists } from './wallet.repo.ts';

/**
 * Opens a member's cash, bonus and withdrawal-hold accounts (and the site's system accounts).
 * Registration calls it in the transaction that creates the member. Idempotent.
 */
export async function openMemberAccounts(
  executor: Executor,
  input: { siteId: bigint; memberId: bigint },
): Promise<void> {
  if (!(await memberExists(executor, input.siteId, input.memberId))) {
    throw new WalletError('ACCOUNT_NOT_FOUND', 'No such member on this site', {
      siteId: input.siteId.toString(),
      memberId: input.memberId.toString(),
    });
  }
  await insertSystemAccounts(executor, input.siteId);
  await insertMemberAccounts(executor, input.siteId, input.memberId);
}

/** Opens a site's system accounts (idempotent); transfers also open them on first use. */
export async function openSiteAccounts(executor: Executor, siteId: bigint): Promise<void> {
  if (!(await siteExists(executor, siteId))) {
    throw new WalletError('ACCOUNT_NOT_FOUND', 'No such site', { siteId: siteId.toString() });
  }
  await insertSystemAccounts(executor, siteId);
}
