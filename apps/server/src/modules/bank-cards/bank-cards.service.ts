import {
  BANK_CARD_LIMIT,
  DEFAULT_BANK_NAME,
  normalizePixKey,
  type TBankCard,
  type TBankCardAddRequest,
  type TBankCardListResponse,
  validCpf,
} from '@sorte/contract';
import { maskPixKey } from '../../core/pii-masks.ts';
import type { TSite } from '../../core/site.ts';
import type { Executor, Tx } from '../../db/client.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { AppError } from '../../errors.ts';
import {
  bindMemberCpf,
  clearDefault,
  cpfTakenByOther,
  findActiveCardByKey,
  findMemberCpf,
  hasOpenWithdrawal,
  insertCard,
  listActiveCards,
  lockActiveCard,
  lockCpf,
  lockMember,
  promoteNewestToDefault,
  softDeleteCard,
} from './bank-cards.repo.ts';
import type { TBankCardRow } from './bank-cards.schema.ts';

/**
 * Bank cards: the PIX keys a member withdraws to.
 *
 * Rules, in the order they are checked (a refusal changes nothing):
 *   1. the key is valid for its type (CPF/CNPJ check digits, EVP = UUID v4, Brazilian phone, email)
 *      and the payee CPF has valid check digits; a CPF key must be that same CPF;
 *   2. on `br` sites withdrawals go only to the player's own CPF (architecture §5): a CNPJ key is
 *      refused, and the card's CPF must be the member's CPF. A member without one binds the CPF of
 *      the first card (members.cpf), unless another member of the site already holds it;
 *   3. at most BANK_CARD_LIMIT active cards per member;
 *   4. one active card per key on a site (the same key twice, or someone else's key, is refused).
 * Removing is a soft delete (withdrawal orders keep pointing at the card), refused while a
 * withdrawal to the card is waiting for review or payout.
 */

export function ownCpfOnly(site: TSite): boolean {
  return site.jurisdiction === 'br';
}

export function toBankCard(row: TBankCardRow): TBankCard {
  return {
    id: Number(row.id),
    bank_name: row.bankName,
    account_type: row.accountType,
    name: row.payeeName,
    account: row.pixKey,
    account_masked: maskPixKey(row.accountType, row.pixKey),
    cpf_id: row.cpf,
    account_no: row.accountNo,
    is_default: row.isDefault,
    created_at: row.createdAt.toISOString(),
  };
}

export async function listBankCards(
  executor: Executor,
  site: TSite,
  memberId: bigint,
): Promise<TBankCardListResponse> {
  const [rows, memberCpf] = await Promise.all([
    listActiveCards(executor, site.id, memberId),
    ownCpfOnly(site) ? findMemberCpf(executor, site.id, memberId) : Promise.resolve(null),
  ]);
  return {
    list: rows.map(toBankCard),
    max_cards: BANK_CARD_LIMIT,
    own_cpf_only: ownCpfOnly(site),
    member_cpf: memberCpf,
  };
}

/** Checks and normalises the form; field errors name the field the player has to fix. */
function validateCard(site: TSite, input: TBankCardAddRequest) {
  const cpf = validCpf(input.cpf_id);
  const key = normalizePixKey(input.account_type, input.account);
  const fields: Record<string, string> = {};
  if (!cpf) fields.cpf_id = 'validation.cpf_invalid';
  if (!key.ok) fields.account = key.messageKey;
  else if (input.account_type === 'CPF' && cpf && key.key !== cpf)
    fields.account = 'validation.pix_cpf_mismatch';
  const first = Object.values(fields)[0];
  if (first || !cpf || !key.ok) {
    throw new AppError('VALIDATION_FAILED', {
      messageKey: first ?? 'validation.invalid',
      fieldErrors: fields,
    });
  }
  if (ownCpfOnly(site) && input.account_type === 'CNPJ') throw new AppError('CPF_MISMATCH');
  return {
    cpf,
    pixKey: key.key,
    bankName: input.bank_name?.trim() || DEFAULT_BANK_NAME,
    payeeName: input.name.trim().replace(/\s+/g, ' '),
    accountNo: input.account_no?.trim() || null,
  };
}

export async function addBankCard(
  executor: Executor,
  site: TSite,
  memberId: bigint,
  input: TBankCardAddRequest,
): Promise<TBankCard> {
  const card = validateCard(site, input);
  try {
    return await executor.transaction(async (tx) => {
      const member = await lockMember(tx, site.id, memberId);
      if (!member) throw new AppError('UNAUTHENTICATED');
      if (ownCpfOnly(site)) await bindOwnCpf(tx, site.id, memberId, member.cpf, card.cpf);

      const active = await listActiveCards(tx, site.id, memberId);
      if (active.length >= BANK_CARD_LIMIT) {
        throw new AppError('BANK_CARD_LIMIT', { params: { max: BANK_CARD_LIMIT } });
      }
      if (await findActiveCardByKey(tx, site.id, input.account_type, card.pixKey)) {
        throw new AppError('BANK_CARD_DUPLICATE');
      }
      const makeDefault = active.length === 0 || input.is_default === true;
      if (makeDefault) await clearDefault(tx, memberId);
      const row = await insertCard(tx, {
        siteId: site.id,
        memberId,
        bankName: card.bankName,
        accountType: input.account_type,
        payeeName: card.payeeName,
        pixKey: card.pixKey,
        cpf: card.cpf,
        accountNo: card.accountNo,
        isDefault: makeDefault,
      });
      return toBankCard(row);
    });
  } catch (error) {
    // Two members adding one key at the same instant: the unique index decides, the loser is told.
    if (isUniqueViolation(error, 'member_bank_cards_active_key')) throw new AppError('BANK_CARD_DUPLICATE');
    throw error;
  }
}

/** br: the card's CPF must be the member's; a member without a CPF binds this one (if free). */
async function bindOwnCpf(
  tx: Tx,
  siteId: bigint,
  memberId: bigint,
  memberCpf: string | null,
  cardCpf: string,
): Promise<void> {
  if (memberCpf !== null) {
    if (memberCpf !== cardCpf) throw new AppError('CPF_MISMATCH');
    return;
  }
  await lockCpf(tx, siteId, cardCpf);
  if (await cpfTakenByOther(tx, siteId, memberId, cardCpf)) throw new AppError('CPF_IN_USE');
  await bindMemberCpf(tx, memberId, cardCpf);
}

export async function deleteBankCard(
  executor: Executor,
  site: TSite,
  memberId: bigint,
  cardId: bigint,
): Promise<{ id: number }> {
  return executor.transaction(async (tx) => {
    if (!(await lockMember(tx, site.id, memberId))) throw new AppError('UNAUTHENTICATED');
    // Another member's card, another site's, or one already removed: all "not one of yours".
    const card = await lockActiveCard(tx, site.id, memberId, cardId, 'update');
    if (!card) throw new AppError('BANK_CARD_NOT_FOUND');
    if (await hasOpenWithdrawal(tx, card.id)) throw new AppError('BANK_CARD_IN_USE');
    await softDeleteCard(tx, card.id);
    if (card.isDefault) await promoteNewestToDefault(tx, memberId);
    return { id: Number(card.id) };
  });
}
