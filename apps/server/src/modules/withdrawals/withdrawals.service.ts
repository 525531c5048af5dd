import {
  CURRENCY,
  formatMinor,
  isValidCpf,
  LANGUAGE_TAGS,
  normalizeCpf,
  parseMinor,
  type TLanguage,
  type TWithdrawalOrder,
  type TWithdrawalStatus,
  type TWithdrawInfoResponse,
  translate,
  WITHDRAWAL_STATUSES,
} from '@sorte/contract';
import { recordOperatorAction, type TOperatorAuth } from '../../core/audit.ts';
import { sha256OfJson } from '../../core/hash.ts';
import { cashierOffers, withdrawalHolds, withdrawalRequested } from '../../core/money-events.ts';
import { maskPixKey } from '../../core/pii-masks.ts';
import type { TSite } from '../../core/site.ts';
import type { Db, Executor } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import { twoPersonGate } from '../admin/withdrawal-review.ts';
import { lockUsableBankCard } from '../bank-cards/bank-cards.repo.ts';
import { checkPage, newOrderNo, type RecordsPage, sinceOf } from '../deposits/deposits.service.ts';
import type { PspGateway } from '../deposits/psp-gateway.ts';
import { notify } from '../information/information.service.ts';
import { assertWithdrawalVerified } from '../kyc/kyc.service.ts';
import type { PayoutAnswer } from '../payments/psp/payout-adapter.ts';
import { createPayoutId, type PixKeyType } from '../payments/psp/psp.client.ts';
import type { RealtimeHub } from '../realtime/realtime.hub.ts';
import { assertSecondFactor } from '../security/second-factor.ts';
import { findSecurityMember } from '../security/security.repo.ts';
import type { TClientInfo } from '../security/security-events.ts';
import type { LoginThrottle } from '../sessions/login-throttle.ts';
import { hashSecret, verifySecret } from '../sessions/passwords.ts';
import { openMemberAccounts } from '../wallet/accounts.ts';
import { getBalances } from '../wallet/balances.ts';
import { hold, releaseHold, settleHold } from '../wallet/holds.ts';
import { isWalletError } from '../wallet/wallet.errors.ts';
import {
  clearFailures,
  countRequestsSince,
  findChannelFee,
  findMemberProfile,
  findOrderByKey,
  findOrders,
  findRecentFailures,
  findSettings,
  findStalePaying,
  insertFailure,
  insertOrder,
  lockMemberRow,
  lockOrderByNo,
  lockOrderByPayoutId,
  setWithdrawPasswordHash,
  sumWithdrawnMinor,
  updateOrder,
} from './withdrawals.repo.ts';
import type { TWithdrawalOrderRow, TWithdrawalSettingsRow } from './withdrawals.schema.ts';

/** Wrong withdrawal passwords allowed inside the window before withdrawals lock for the window. */
export const PASSWORD_MAX_FAILURES = 5;
export const PASSWORD_WINDOW_MINUTES = 15;
const DEFAULT_PAGE = 20;
const PAYOUT_SYNC_BATCH = 50;

export type TWithdrawalDeps = {
  db: Db;
  psp: PspGateway;
  realtime: RealtimeHub;
  /** Counts wrong authenticator codes (two-factor authentication at withdrawal). */
  throttle: LoginThrottle;
  log: {
    info(obj: object, msg: string): void;
    warn(obj: object, msg: string): void;
    error(obj: object, msg: string): void;
  };
};

// ---------------------------------------------------------------------------------------------
// Rules

/**
 * Every withdrawal is paid out over PIX: each PIX key type (CPF, CNPJ, phone, e-mail, random) goes
 * over the same rail, so it is the one payout channel a fee is set for today.
 */
export const PAYOUT_CHANNEL = 'pix';
const CHANNEL_NAMES: Record<string, string> = { pix: 'PIX' };

type TFeeRule = { feeBps: number; feeMinMinor: bigint };

/** fee = max(fee_min, amount × fee_bps / 10 000), rounded down to the centavo; zero when unset. */
export function feeOf(rule: TFeeRule, amountMinor: bigint): bigint {
  const proportional = (amountMinor * BigInt(rule.feeBps)) / 10_000n;
  return proportional > rule.feeMinMinor ? proportional : rule.feeMinMinor;
}

function checkBounds(settings: TWithdrawalSettingsRow, rule: TFeeRule, amountMinor: bigint): bigint {
  const fee = feeOf(rule, amountMinor);
  if (amountMinor < settings.minMinor || amountMinor > settings.maxMinor || fee >= amountMinor) {
    throw new AppError('AMOUNT_OUT_OF_RANGE', {
      params: { min: formatMinor(settings.minMinor), max: formatMinor(settings.maxMinor) },
      fieldErrors: { money: 'errors.AMOUNT_OUT_OF_RANGE' },
    });
  }
  return fee;
}

function startOfToday(now = new Date()): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
}

function ownCpfOnly(site: TSite): boolean {
  return site.jurisdiction === 'br';
}

export async function getWithdrawInfo(
  db: Db,
  site: TSite,
  memberId: bigint,
  lang: TLanguage,
  moneyText: string | undefined,
): Promise<TWithdrawInfoResponse> {
  const settings = await findSettings(db, site.id);
  const feeRule = await findChannelFee(db, site.id, PAYOUT_CHANNEL);
  const member = await findMemberProfile(db, site.id, memberId);
  if (!member) throw new AppError('UNAUTHENTICATED');
  await openMemberAccounts(db, { siteId: site.id, memberId });
  const balances = await getBalances(db, memberId, { siteId: site.id });
  const todayCount = await countRequestsSince(db, memberId, startOfToday());
  const amount = moneyText === undefined ? null : parseMinor(moneyText.trim());
  const fee = amount !== null && amount > 0n ? feeOf(feeRule, amount) : null;
  const min = formatMinor(settings.minMinor);
  const max = formatMinor(settings.maxMinor);
  const channel = CHANNEL_NAMES[PAYOUT_CHANNEL] ?? PAYOUT_CHANNEL;
  const free = feeRule.feeBps === 0 && feeRule.feeMinMinor === 0n;
  // The recharge rewards' rule only where the site gives recharge rewards, with their own multiple.
  const wagering = await cashierOffers().rechargeRewardWagering(db, site);
  const rules = [
    translate(lang, 'messages.withdraw_rule_bounds', { min, max }),
    free
      ? translate(lang, 'messages.withdraw_rule_no_fee', { channel })
      : translate(lang, 'messages.withdraw_rule_fee', {
          channel,
          rate: new Intl.NumberFormat(LANGUAGE_TAGS[lang], { maximumFractionDigits: 2 }).format(
            feeRule.feeBps / 100,
          ),
          min: formatMinor(feeRule.feeMinMinor),
        }),
    translate(lang, 'messages.withdraw_rule_daily', { count: settings.dailyCountMax }),
    ...(wagering === null ? [] : [translate(lang, 'messages.withdraw_rule_wagering', { count: wagering })]),
    translate(lang, 'messages.withdraw_rule_review'),
    ...(ownCpfOnly(site) ? [translate(lang, 'messages.withdraw_rule_own_cpf')] : []),
  ];
  return {
    currency: CURRENCY,
    balance: formatMinor(balances.cashMinor),
    withdrawable: formatMinor(balances.withdrawableMinor),
    wagering_required: formatMinor(balances.wageringRequiredMinor),
    min_money: min,
    max_money: max,
    channel: PAYOUT_CHANNEL,
    fee_rate: formatMinor(BigInt(feeRule.feeBps)),
    fee_min: formatMinor(feeRule.feeMinMinor),
    daily_count_max: settings.dailyCountMax,
    today_count: todayCount,
    has_qk_pwd: member.qkPwdHash !== null,
    own_cpf_only: ownCpfOnly(site),
    preview:
      amount !== null && fee !== null && fee < amount
        ? { amount: formatMinor(amount), fee: formatMinor(fee), actual: formatMinor(amount - fee) }
        : null,
    rules,
  };
}

// ---------------------------------------------------------------------------------------------
// Request

export interface CreateWithdrawalInput {
  amountMinor: bigint;
  bankCardId: bigint;
  qkPwd: string;
  /** The withdrawal password typed again: sent when the member sets it with this first withdrawal. */
  qkPwdConfirmation?: string | undefined;
  memberRemark?: string | undefined;
  /** The payee's CPF as typed, used when the card carries none (intl e-mail / phone / EVP keys). */
  cpf?: string | undefined;
  /** The client's Idempotency-Key: the same key answers the first order of this member. */
  idempotencyKey?: string | undefined;
  /** The authenticator (or recovery) code: required when the member turned two-factor on. */
  totpCode?: string | undefined;
  client?: TClientInfo;
}

/** What a key promises to repeat: every field of the request but the withdrawal password. */
function requestHashOf(input: CreateWithdrawalInput): string {
  const fields = [input.amountMinor, input.bankCardId, input.memberRemark ?? '', input.cpf ?? ''];
  return sha256OfJson(fields.map(String));
}

/** The order an earlier request with this key made, or IDEMPOTENCY_CONFLICT when it asked otherwise. */
async function replayOf(
  executor: Executor,
  memberId: bigint,
  idempotencyKey: string | undefined,
  requestHash: string,
): Promise<TWithdrawalOrderRow | null> {
  if (!idempotencyKey) return null;
  const previous = await findOrderByKey(executor, memberId, idempotencyKey);
  if (previous && previous.requestHash !== requestHash) throw new AppError('IDEMPOTENCY_CONFLICT');
  return previous;
}

/**
 * Checks the withdrawal password against the lockout. The member row is locked while counting,
 * verifying and recording, so parallel guesses are counted one by one and the sixth never gets a
 * verdict; the transaction commits before the refusal is thrown, so failures stick.
 */
async function checkWithdrawPassword(db: Db, site: TSite, memberId: bigint, given: string) {
  const windowStart = () => new Date(Date.now() - PASSWORD_WINDOW_MINUTES * 60_000);
  const verdict = await db.transaction(async (tx) => {
    const member = await lockMemberRow(tx, site.id, memberId);
    if (!member) return { error: new AppError('UNAUTHENTICATED') };
    const lockedFor = async (): Promise<number | null> => {
      const failures = await findRecentFailures(tx, memberId, windowStart(), PASSWORD_MAX_FAILURES);
      if (failures.length < PASSWORD_MAX_FAILURES) return null;
      const unlockAt = failures.at(-1)!.createdAt.getTime() + PASSWORD_WINDOW_MINUTES * 60_000;
      return Math.max(1, Math.ceil((unlockAt - Date.now()) / 60_000));
    };
    const locked = await lockedFor();
    if (locked !== null) return { error: new AppError('WITHDRAW_LOCKED', { params: { minutes: locked } }) };
    if (member.qkPwdHash === null) return { error: new AppError('WITHDRAW_PASSWORD_NOT_SET') };
    if (await verifySecret(member.qkPwdHash, given)) {
      await clearFailures(tx, memberId);
      return { error: null };
    }
    await insertFailure(tx, memberId);
    const nowLocked = await lockedFor();
    if (nowLocked !== null)
      return { error: new AppError('WITHDRAW_LOCKED', { params: { minutes: nowLocked } }) };
    const failures = await findRecentFailures(tx, memberId, windowStart(), PASSWORD_MAX_FAILURES);
    return {
      error: new AppError('WITHDRAW_PASSWORD_WRONG', {
        params: { remaining: PASSWORD_MAX_FAILURES - failures.length },
        fieldErrors: { qk_pwd: 'errors.WITHDRAW_PASSWORD_WRONG' },
      }),
    };
  });
  if (verdict.error) throw verdict.error;
}

/**
 * The hash to store when this request sets the member's first withdrawal password, else null.
 * With a password already set the confirmation is ignored and the password is checked as usual;
 * without one, the request must carry the same 6 digits twice.
 */
async function firstWithdrawPassword(
  db: Db,
  site: TSite,
  memberId: bigint,
  input: CreateWithdrawalInput,
): Promise<string | null> {
  const member = await findMemberProfile(db, site.id, memberId);
  if (!member) throw new AppError('UNAUTHENTICATED');
  if (member.qkPwdHash !== null) return null;
  if (input.qkPwdConfirmation === undefined) throw new AppError('WITHDRAW_PASSWORD_NOT_SET');
  if (input.qkPwdConfirmation !== input.qkPwd) {
    throw new AppError('VALIDATION_FAILED', {
      messageKey: 'validation.passwords_did_not_match',
      fieldErrors: { qk_pwd_confirmation: 'validation.passwords_did_not_match' },
    });
  }
  return hashSecret(input.qkPwd);
}

/** Wallet refusals a player can cause, as the player's error; anything else is a bug. */
function walletRefusal(error: unknown, balancesHint?: () => Promise<bigint>): Promise<never> | never {
  if (isWalletError(error, 'INSUFFICIENT_FUNDS') || isWalletError(error, 'ACCOUNT_NOT_FOUND')) {
    throw new AppError('INSUFFICIENT_FUNDS', { cause: error });
  }
  if (isWalletError(error, 'WAGERING_NOT_MET')) {
    if (!balancesHint) throw new AppError('WAGERING_NOT_MET', { params: { amount: '0.00' }, cause: error });
    return balancesHint().then((owed) => {
      throw new AppError('WAGERING_NOT_MET', { params: { amount: formatMinor(owed) }, cause: error });
    });
  }
  throw error;
}

/**
 * A withdrawal request: bounds → password (with lockout) → the member's own card (br: in the
 * member's CPF) → daily count → the hold. The member row is locked for the request, so a member's
 * concurrent requests run one at a time; the hold (cash → withdrawal_hold, wagering enforced) and
 * the order row commit together, so the money leaves the available balance at once and a refused
 * request changes nothing.
 */
export async function createWithdrawal(
  deps: TWithdrawalDeps,
  site: TSite,
  memberId: bigint,
  input: CreateWithdrawalInput,
): Promise<TWithdrawalOrder> {
  const requestHash = requestHashOf(input);
  const earlier = await replayOf(deps.db, memberId, input.idempotencyKey, requestHash);
  if (earlier) return toOrder(earlier);
  const settings = await findSettings(deps.db, site.id);
  const feeMinor = checkBounds(
    settings,
    await findChannelFee(deps.db, site.id, PAYOUT_CHANNEL),
    input.amountMinor,
  );
  // Two-factor authentication, when the member turned it on, guards withdrawals as it does login.
  const securityMember = await findSecurityMember(deps.db, site.id, memberId);
  if (!securityMember) throw new AppError('UNAUTHENTICATED');
  await assertSecondFactor(deps.db, deps.throttle, site, securityMember, input.totpCode, {
    ip: input.client?.ip ?? null,
    userAgent: input.client?.userAgent ?? null,
  });
  // A player who has no withdrawal password yet sets it with the first withdrawal (typed twice);
  // it is stored with the order below, so a refused first request sets nothing.
  const firstPassword = await firstWithdrawPassword(deps.db, site, memberId, input);
  if (!firstPassword) await checkWithdrawPassword(deps.db, site, memberId, input.qkPwd);
  await openMemberAccounts(deps.db, { siteId: site.id, memberId });

  let order: { row: TWithdrawalOrderRow; created: boolean };
  try {
    order = await deps.db.transaction(async (tx) => {
      const member = await lockMemberRow(tx, site.id, memberId);
      if (!member) throw new AppError('UNAUTHENTICATED');
      // A copy of the first request that waited on the lock finds the password already set.
      if (
        firstPassword &&
        member.qkPwdHash !== null &&
        !(await verifySecret(member.qkPwdHash, input.qkPwd))
      ) {
        throw new AppError('WITHDRAW_PASSWORD_WRONG', {
          params: { remaining: PASSWORD_MAX_FAILURES },
          fieldErrors: { qk_pwd: 'errors.WITHDRAW_PASSWORD_WRONG' },
        });
      }
      // The member row lock orders a member's requests: a copy that waited on it sees the first.
      const replay = await replayOf(tx, memberId, input.idempotencyKey, requestHash);
      if (replay) return { row: replay, created: false };
      // The site's KYC rule for withdrawals, against what the member has withdrawn so far (read
      // under the member row lock, so two requests at once cannot both slip under a total).
      await assertWithdrawalVerified(
        tx,
        site,
        memberId,
        input.amountMinor,
        await sumWithdrawnMinor(tx, memberId),
      );
      const card = await lockUsableBankCard(tx, site.id, memberId, input.bankCardId);
      if (!card)
        throw new AppError('BANK_CARD_NOT_FOUND', {
          fieldErrors: { member_bank_id: 'errors.BANK_CARD_NOT_FOUND' },
        });

      let payeeDocument: string | null;
      if (card.accountType === 'CNPJ') payeeDocument = card.pixKey;
      else {
        const typed = input.cpf ? normalizeCpf(input.cpf) : null;
        if (input.cpf && (!typed || !isValidCpf(typed))) {
          throw new AppError('VALIDATION_FAILED', {
            messageKey: 'validation.cpf_invalid',
            fieldErrors: { cpf_id: 'validation.cpf_invalid' },
          });
        }
        payeeDocument = card.cpf ?? (card.accountType === 'CPF' ? card.pixKey : null) ?? typed ?? member.cpf;
      }
      if (ownCpfOnly(site)) {
        const own = member.cpf;
        const keyOk = card.accountType !== 'CNPJ' && (card.accountType !== 'CPF' || card.pixKey === own);
        if (own === null || !keyOk || payeeDocument !== own) throw new AppError('CPF_MISMATCH');
      }
      if (payeeDocument === null) {
        throw new AppError('VALIDATION_FAILED', {
          messageKey: 'validation.required.cpf',
          fieldErrors: { cpf_id: 'validation.required.cpf' },
        });
      }

      const today = await countRequestsSince(tx, memberId, startOfToday());
      if (today >= settings.dailyCountMax) {
        throw new AppError('WITHDRAW_DAILY_LIMIT', { params: { count: settings.dailyCountMax } });
      }

      const orderNo = newOrderNo('W');
      const held = await hold(tx, {
        siteId: site.id,
        memberId,
        amountMinor: input.amountMinor,
        idempotencyKey: `withdraw:${orderNo}`,
        reference: `withdrawal:${orderNo}`,
        metadata: { orderNo, bankCardId: card.id.toString() },
      }).catch((error: unknown) =>
        walletRefusal(
          error,
          async () => (await getBalances(tx, memberId, { siteId: site.id })).wageringRequiredMinor,
        ),
      );
      const row = await insertOrder(tx, {
        siteId: site.id,
        memberId,
        orderNo,
        amountMinor: input.amountMinor,
        feeMinor,
        actualMinor: input.amountMinor - feeMinor,
        bankCardId: card.id,
        paymentType: 'pix',
        pixKey: card.pixKey,
        pixKeyType: card.accountType,
        payeeName: card.payeeName,
        payeeCpf: payeeDocument,
        memberRemark: input.memberRemark ?? null,
        holdTransferId: held.transferId,
        idempotencyKey: input.idempotencyKey ?? null,
        requestHash: input.idempotencyKey ? requestHash : null,
      });
      if (firstPassword && member.qkPwdHash === null)
        await setWithdrawPasswordHash(tx, memberId, firstPassword);
      await withdrawalRequested.emit(tx, {
        siteId: site.id,
        memberId,
        orderNo,
        amountMinor: input.amountMinor,
        pixKey: card.pixKey,
        pixKeyType: card.accountType,
      });
      return { row, created: true };
    });
  } catch (error) {
    if (error instanceof AppError) throw error;
    return walletRefusal(error);
  }
  if (order.created) {
    await deps.realtime.publishBalance(site.id, memberId, 'withdraw_requested', order.row.orderNo);
  }
  return toOrder(order.row);
}

/**
 * The player withdraws an order still waiting for review: the hold is released (the amount is back
 * in cash at once, a `withdrawal_release` in the records) and the order ends `cancelled`. Once an
 * operator has taken it (approved, paying, paid, rejected) it can no longer be cancelled.
 */
export async function cancelWithdrawal(
  deps: TWithdrawalDeps,
  site: TSite,
  memberId: bigint,
  orderNo: string,
): Promise<TWithdrawalOrder> {
  const order = await deps.db.transaction(async (tx) => {
    const row = await lockOrderByNo(tx, site.id, orderNo);
    if (row?.memberId !== memberId) throw new AppError('ORDER_NOT_FOUND');
    if (row.status !== 'pending_review') throw new AppError('ORDER_STATE_CONFLICT');
    const released = await releaseHold(tx, {
      siteId: row.siteId,
      holdTransferId: row.holdTransferId,
      idempotencyKey: `withdraw-cancel:${row.orderNo}`,
      reference: `withdrawal:${row.orderNo}`,
    });
    return updateOrder(tx, row.id, {
      status: 'cancelled',
      cancelledAt: new Date(),
      resolveTransferId: released.transferId,
    });
  });
  await deps.realtime.publishBalance(site.id, memberId, 'withdraw_cancelled', order.orderNo);
  return toOrder(order);
}

function toOrder(row: TWithdrawalOrderRow): TWithdrawalOrder {
  return {
    id: row.id.toString(),
    order_no: row.orderNo,
    amount: formatMinor(row.amountMinor),
    fee: formatMinor(row.feeMinor),
    actual: formatMinor(row.actualMinor),
    status: row.status,
    review_status: row.reviewStatus,
    bank_card_id: row.bankCardId.toString(),
    account_type: row.pixKeyType,
    account: maskPixKey(row.pixKeyType, row.pixKey),
    payee_name: row.payeeName,
    member_remark: row.memberRemark,
    remark: row.remark,
    created_at: row.createdAt.toISOString(),
    reviewed_at: row.reviewedAt?.toISOString() ?? null,
    paid_at: row.paidAt?.toISOString() ?? null,
    cancelled_at: row.cancelledAt?.toISOString() ?? null,
  };
}

const STATUS_SET = new Set<string>(WITHDRAWAL_STATUSES);

export async function listWithdrawals(db: Db, site: TSite, memberId: bigint, page: RecordsPage) {
  checkPage(page);
  if (page.status !== undefined && !STATUS_SET.has(page.status)) {
    throw new AppError('VALIDATION_FAILED', { fieldErrors: { status: 'validation.invalid' } });
  }
  const { rows, hasOlder, hasNewer } = await findOrders(db, {
    siteId: site.id,
    memberId,
    before: page.before ? BigInt(page.before) : null,
    after: page.after ? BigInt(page.after) : null,
    limit: page.limit ?? DEFAULT_PAGE,
    since: sinceOf(site, page.period),
    statuses: page.status ? [page.status as TWithdrawalStatus] : null,
  });
  return {
    list: rows.map((r) => toOrder(r.order)),
    next: hasOlder && rows.length > 0 ? rows.at(-1)!.order.id.toString() : null,
    prev: hasNewer && rows.length > 0 ? rows[0]!.order.id.toString() : null,
  };
}

// ---------------------------------------------------------------------------------------------
// Review (back office)

export async function listForReview(
  db: Db,
  operator: TOperatorAuth,
  query: { status?: TWithdrawalStatus | undefined; before?: string | undefined; limit?: number | undefined },
) {
  const { rows, hasOlder } = await findOrders(db, {
    siteId: operator.siteId,
    memberId: null,
    before: query.before ? BigInt(query.before) : null,
    after: null,
    limit: query.limit ?? DEFAULT_PAGE,
    since: null,
    statuses: [query.status ?? 'pending_review'],
  });
  return {
    list: rows.map(({ order, username }) => ({
      ...toOrder(order),
      member_id: order.memberId.toString(),
      username,
      pix_key: order.pixKey,
      payout_id: order.payoutId,
      fail_reason: order.failReason,
    })),
    next: hasOlder && rows.length > 0 ? rows.at(-1)!.order.id.toString() : null,
  };
}

const PIX_KEY_TYPES: Record<TWithdrawalOrderRow['pixKeyType'], PixKeyType> = {
  CPF: 'CPF',
  CNPJ: 'CNPJ',
  EVP: 'EVP',
  PHONE: 'TELEFONE',
  EMAIL: 'EMAIL',
};

/**
 * Sends (or re-sends: the payout id is the idempotency key) the order's payout through the PSP's
 * payout adapter, and applies a definite answer at once: done, failed, or refused (the money
 * returns). An unknown answer leaves the order `paying` for the sync job to ask about by id.
 */
async function sendPayout(deps: TWithdrawalDeps, order: TWithdrawalOrderRow): Promise<PayoutAnswer> {
  const connection = deps.psp.connection();
  const document = order.payeeCpf ?? '';
  const answer = await connection.payouts.send({
    id: order.payoutId!,
    amountMinor: order.actualMinor,
    pixKey: order.pixKey,
    pixKeyType: PIX_KEY_TYPES[order.pixKeyType],
    recipient:
      document.length === 14 || order.pixKeyType === 'CNPJ'
        ? { cnpj: document, name: order.payeeName }
        : { cpf: document, name: order.payeeName },
    description: `Sorte ${order.orderNo}`,
  });
  if (answer.kind === 'refused') {
    deps.log.warn(
      { orderNo: order.orderNo, reason: answer.reason },
      'PSP refused the payout; returning the money',
    );
    await failPayout(deps, order.payoutId!, answer.reason);
  } else if (answer.kind === 'accepted') {
    await applyPayoutAnswer(deps, order.payoutId!, answer);
  } else {
    deps.log.error({ orderNo: order.orderNo, answer }, 'payout outcome unknown; the sync job asks the PSP');
  }
  return answer;
}

/**
 * Approval: not reviewed → reviewed, status `paying`, and the payout goes to the PSP. At or above
 * the site's second-approval amount the first operator's approval is only recorded (the order stays
 * pending_review) and a second, different operator's approval pays (twoPersonGate). The money
 * stays held until the PSP reports the payout (settleHold → paid) or its failure (releaseHold →
 * failed). A PSP that refuses the payout outright fails the order and returns the money now; a PSP
 * that cannot be reached leaves it `paying` for the sync job to send again.
 */
export async function approveWithdrawal(
  deps: TWithdrawalDeps,
  operator: TOperatorAuth,
  orderNo: string,
  remark: string | undefined,
) {
  const order = await deps.db.transaction(async (tx) => {
    const row = await lockOrderByNo(tx, operator.siteId, orderNo);
    if (!row) throw new AppError('ORDER_NOT_FOUND');
    if (row.status !== 'pending_review') throw new AppError('ORDER_STATE_CONFLICT');
    // A player compliance holds (ADR 040): the order stays in review, the player sees only that.
    if (await withdrawalHolds().isHeld(tx, row.siteId, row.memberId)) throw new AppError('COMPLIANCE_HOLD');
    // Without a PSP to pay through the order stays in review (the transaction rolls back).
    deps.psp.connection();
    if ((await twoPersonGate(tx, operator, row, remark)) === 'recorded') return null;
    await notifyOrder(tx, row, 'withdraw_reviewed');
    const updated = await updateOrder(tx, row.id, {
      status: 'paying',
      reviewStatus: 'reviewed',
      reviewedAt: new Date(),
      reviewedBy: operator.operatorId,
      remark: remark ?? null,
      payoutId: createPayoutId(),
    });
    await recordOperatorAction(
      tx,
      operator,
      'withdrawal.approve',
      { memberId: row.memberId, entity: 'withdrawal', entityId: row.orderNo },
      { status: row.status, review_status: row.reviewStatus },
      { status: updated.status, review_status: updated.reviewStatus, payout_id: updated.payoutId, remark },
    );
    return updated;
  });
  // A first approval of a two-person order: recorded, still pending, nothing sent.
  if (!order) return toOrderAfter(deps.db, operator.siteId, orderNo);
  await sendPayout(deps, order);
  return toOrderAfter(deps.db, operator.siteId, orderNo);
}

async function toOrderAfter(db: Db, siteId: bigint, orderNo: string): Promise<TWithdrawalOrder> {
  const row = await db.transaction((tx) => lockOrderByNo(tx, siteId, orderNo));
  if (!row) throw new AppError('ORDER_NOT_FOUND');
  return toOrder(row);
}

/** Rejection: the held money returns to cash (releaseHold) and the order is reviewed → rejected. */
export async function rejectWithdrawal(
  deps: TWithdrawalDeps,
  operator: TOperatorAuth,
  orderNo: string,
  remark: string,
) {
  const order = await deps.db.transaction(async (tx) => {
    const row = await lockOrderByNo(tx, operator.siteId, orderNo);
    if (!row) throw new AppError('ORDER_NOT_FOUND');
    if (row.status !== 'pending_review') throw new AppError('ORDER_STATE_CONFLICT');
    const released = await releaseHold(tx, {
      siteId: row.siteId,
      holdTransferId: row.holdTransferId,
      idempotencyKey: `withdraw-reject:${row.orderNo}`,
      reference: `withdrawal:${row.orderNo}`,
    });
    await notifyOrder(tx, row, 'withdraw_rejected');
    const updated = await updateOrder(tx, row.id, {
      status: 'rejected',
      reviewStatus: 'reviewed',
      reviewedAt: new Date(),
      reviewedBy: operator.operatorId,
      remark,
      resolveTransferId: released.transferId,
    });
    await recordOperatorAction(
      tx,
      operator,
      'withdrawal.reject',
      { memberId: row.memberId, entity: 'withdrawal', entityId: row.orderNo },
      { status: row.status, review_status: row.reviewStatus },
      { status: updated.status, review_status: updated.reviewStatus, remark },
    );
    return updated;
  });
  await deps.realtime.publishBalance(order.siteId, order.memberId, 'withdraw_rejected', order.orderNo);
  return toOrder(order);
}

// ---------------------------------------------------------------------------------------------
// Payout results

/** Payout done: the held money leaves for the PSP (settleHold, fee kept) and the order is paid. */
async function completePayout(
  deps: TWithdrawalDeps,
  payoutId: string,
  settledAt: Date | null,
): Promise<boolean> {
  const order = await deps.db.transaction(async (tx) => {
    const row = await lockOrderByPayoutId(tx, payoutId);
    if (row?.status !== 'paying') return null;
    const settled = await settleHold(tx, {
      siteId: row.siteId,
      holdTransferId: row.holdTransferId,
      idempotencyKey: `withdraw-paid:${row.orderNo}`,
      feeMinor: row.feeMinor,
      reference: `withdrawal:${row.orderNo}`,
    });
    await notifyOrder(tx, row, 'withdraw_paid');
    return updateOrder(tx, row.id, {
      status: 'paid',
      paidAt: settledAt ?? new Date(),
      resolveTransferId: settled.payout.transferId,
    });
  });
  if (order) await deps.realtime.publishBalance(order.siteId, order.memberId, 'withdraw_paid', order.orderNo);
  return order !== null;
}

/** Payout failed: the held money returns to cash (releaseHold) and the order is failed. */
async function failPayout(deps: TWithdrawalDeps, payoutId: string, reason: string): Promise<boolean> {
  const order = await deps.db.transaction(async (tx) => {
    const row = await lockOrderByPayoutId(tx, payoutId);
    if (row?.status !== 'paying') return null;
    const released = await releaseHold(tx, {
      siteId: row.siteId,
      holdTransferId: row.holdTransferId,
      idempotencyKey: `withdraw-failed:${row.orderNo}`,
      reference: `withdrawal:${row.orderNo}`,
    });
    await notifyOrder(tx, row, 'withdraw_failed');
    return updateOrder(tx, row.id, {
      status: 'failed',
      failReason: reason,
      resolveTransferId: released.transferId,
    });
  });
  if (order)
    await deps.realtime.publishBalance(order.siteId, order.memberId, 'withdraw_failed', order.orderNo);
  return order !== null;
}

/** The member's notification of a step of their withdrawal (information centre). */
function notifyOrder(
  tx: Parameters<Parameters<TWithdrawalDeps['db']['transaction']>[0]>[0],
  row: TWithdrawalOrderRow,
  kind: 'withdraw_reviewed' | 'withdraw_rejected' | 'withdraw_paid' | 'withdraw_failed',
) {
  return notify(tx, {
    siteId: row.siteId,
    memberId: row.memberId,
    kind,
    params: { amount: formatMinor(row.amountMinor), order_no: row.orderNo },
    dedupeKey: `${kind}:${row.orderNo}`,
  });
}

export type PayoutOutcome = 'paid' | 'failed' | 'pending' | 'ignored';

/** Applies what the PSP answered about a payout (to our send or our query); repeats change nothing. */
export async function applyPayoutAnswer(
  deps: TWithdrawalDeps,
  payoutId: string,
  answer: Extract<PayoutAnswer, { kind: 'accepted' }>,
): Promise<PayoutOutcome> {
  if (answer.status === 'REALIZADO')
    return (await completePayout(deps, payoutId, answer.settledAt)) ? 'paid' : 'ignored';
  if (answer.status === 'NAO_REALIZADO') {
    return (await failPayout(deps, payoutId, (answer.failureReason ?? 'payout_failed').slice(0, 200)))
      ? 'failed'
      : 'ignored';
  }
  return 'pending';
}

/**
 * A payout the PSP says it does not have is sent again (same id) for this long after approval;
 * past it, it is a definite failure and the held money returns. Bounded: never resent forever.
 */
export const PAYOUT_RESEND_WINDOW_MS = 30 * 60_000;

/** Asks the PSP about one payout by id and acts on a definite answer. */
export async function syncPayout(deps: TWithdrawalDeps, order: TWithdrawalOrderRow): Promise<PayoutOutcome> {
  const connection = deps.psp.connection();
  const answer = await connection.payouts.get(order.payoutId!);
  if (answer.kind === 'accepted') return applyPayoutAnswer(deps, order.payoutId!, answer);
  if (answer.kind === 'not_found') {
    const approvedAt = (order.reviewedAt ?? order.updatedAt).getTime();
    if (Date.now() - approvedAt > PAYOUT_RESEND_WINDOW_MS) {
      return (await failPayout(deps, order.payoutId!, 'payout_not_found_at_psp')) ? 'failed' : 'ignored';
    }
    const sent = await sendPayout(deps, order);
    return sent.kind === 'refused' ? 'failed' : 'pending';
  }
  deps.log.warn({ orderNo: order.orderNo, answer }, 'payout sync: the PSP could not tell');
  return 'pending';
}

/** A payout callback names an id: what the PSP answers our query about it is applied. */
export async function syncPayoutById(deps: TWithdrawalDeps, payoutId: string): Promise<PayoutOutcome> {
  const order = await deps.db.transaction((tx) => lockOrderByPayoutId(tx, payoutId));
  if (order?.status !== 'paying') return 'ignored';
  return syncPayout(deps, order);
}

/**
 * The payout sync job: orders `paying` for longer than `staleMs` are asked about at the PSP (a lost
 * callback, or a send whose answer we never got) and settled, failed or sent again.
 */
export async function syncPayouts(deps: TWithdrawalDeps, staleMs = 60_000): Promise<number> {
  if (!deps.psp.attached) return 0;
  const stale = await findStalePaying(deps.db, new Date(Date.now() - staleMs), PAYOUT_SYNC_BATCH);
  let changed = 0;
  for (const order of stale) {
    try {
      const outcome = await syncPayout(deps, order);
      if (outcome === 'paid' || outcome === 'failed') changed += 1;
    } catch (error) {
      deps.log.warn({ err: error, orderNo: order.orderNo }, 'payout sync failed');
    }
  }
  return changed;
}
