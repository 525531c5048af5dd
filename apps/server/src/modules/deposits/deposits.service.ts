import { randomBytes } from 'node:crypto';
import {
  CURRENCY,
  formatMinor,
  type TDepositOrder,
  type TPaymentChannelsResponse,
  type TPaymentsListResponse,
  type TRechargeListResponse,
  type TRechargeResponse,
  type TRecordPeriod,
} from '@sorte/contract';
import { buildDynamicBrCode } from '@sorte/pix-br-code';
import { cashierOffers, depositCredited } from '../../core/money-events.ts';
import { periodStart, siteTimeZone } from '../../core/periods.ts';
import type { TSite } from '../../core/site.ts';
import type { Db, Executor, Tx } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import { bindMemberCpf, cpfTakenByOther, lockCpf } from '../bank-cards/bank-cards.repo.ts';
import { notify } from '../information/information.service.ts';
import type { PixPayment } from '../payments/psp/psp.client.ts';
import { type Charge, createTxid, PspError } from '../payments/psp/psp.client.ts';
import type { RealtimeHub } from '../realtime/realtime.hub.ts';
import { assertDepositAllowed } from '../responsible-gaming/rg.service.ts';
import { openMemberAccounts } from '../wallet/accounts.ts';
import { transfer } from '../wallet/wallet.service.ts';
import {
  expirePendingOrders,
  findMemberOrder,
  findMemberOrders,
  findMemberProfile,
  findSiteChannels,
  insertDepositOrder,
  lockOrderByTxid,
  markRefundSettled,
  tryExpiryLock,
  updateDepositOrder,
} from './deposits.repo.ts';
import type { TDepositOrderRow, TDepositStatus, TPaymentChannelRow } from './deposits.schema.ts';
import type { PspGateway } from './psp-gateway.ts';

/** Recharge rewards must be bet this many times the recharge amount before withdrawal (spec §5). */
export const BONUS_WAGERING_MULTIPLE = 5n;
/** One job run at a time across processes (the expiry job's advisory lock). */
const EXPIRY_LOCK_KEY = 727_004;
const DEFAULT_PAGE = 20;

export type TDepositDeps = {
  db: Db;
  psp: PspGateway;
  realtime: RealtimeHub;
  log: {
    info(obj: object, msg: string): void;
    warn(obj: object, msg: string): void;
    error(obj: object, msg: string): void;
  };
};

/** A member_id sent in a payload must be the caller's own (identity comes from the session). */
export function assertOwnMember(claimed: string | number | undefined, memberId: bigint): void {
  if (claimed !== undefined && BigInt(claimed) !== memberId) throw new AppError('FORBIDDEN');
}

// ---------------------------------------------------------------------------------------------
// Catalogue

function percent(bps: number): string {
  return formatMinor(BigInt(bps));
}

export async function listPaymentMethods(executor: Executor, site: TSite): Promise<TPaymentsListResponse> {
  const channels = await findSiteChannels(executor, site.id);
  const methods = new Map<string, TPaymentChannelRow[]>();
  for (const channel of channels)
    methods.set(channel.method, [...(methods.get(channel.method) ?? []), channel]);
  return {
    currency: CURRENCY,
    list: [...methods.entries()].map(([method, rows]) => ({
      payment_type: method,
      name: rows[0]!.methodName,
      min_money: formatMinor(
        rows.reduce((min, r) => (r.minMinor < min ? r.minMinor : min), rows[0]!.minMinor),
      ),
      max_money: formatMinor(
        rows.reduce((max, r) => (r.maxMinor > max ? r.maxMinor : max), rows[0]!.maxMinor),
      ),
      channel_count: rows.length,
    })),
  };
}

export async function listPaymentChannels(
  executor: Executor,
  site: TSite,
  method: string | undefined,
): Promise<TPaymentChannelsResponse> {
  const channels = (await findSiteChannels(executor, site.id)).filter((c) => !method || c.method === method);
  const giftBps = await Promise.all(
    channels.map((c) => cashierOffers().channelGiftBps(executor, site, c.bonusBps)),
  );
  return {
    currency: CURRENCY,
    list: channels.map((c, index) => ({
      id: Number(c.id),
      payment_type: c.method,
      code: c.code,
      name: c.name,
      min_money: formatMinor(c.minMinor),
      max_money: formatMinor(c.maxMinor),
      fee_rate: percent(c.feeBps),
      bonus_rate: percent(giftBps[index] ?? 0),
      bonus_wagering_multiple: Number(BONUS_WAGERING_MULTIPLE),
      presets: c.presetsMinor.map(formatMinor),
      expires_in: c.expiresSeconds,
    })),
  };
}

// ---------------------------------------------------------------------------------------------
// Orders

/** R + yyyymmdd + 12 random capitals/digits: unique, unguessable, readable over the phone. */
export function newOrderNo(prefix: 'R' | 'W', now = new Date()): string {
  const day = now.toISOString().slice(0, 10).replaceAll('-', '');
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
  let tail = '';
  for (const byte of randomBytes(12)) tail += alphabet[byte % 32];
  return `${prefix}${day}${tail}`;
}

function toOrder(row: TDepositOrderRow): TDepositOrder {
  return {
    id: row.id.toString(),
    order_no: row.orderNo,
    amount: formatMinor(row.amountMinor),
    bonus: formatMinor(row.bonusMinor),
    payment_type: row.paymentMethod,
    channel: row.channel,
    status: row.status,
    created_at: row.createdAt.toISOString(),
    expires_at: row.expiresAt.toISOString(),
    paid_at: row.paidAt ? row.paidAt.toISOString() : null,
  };
}

function withPayment(deps: TDepositDeps, row: TDepositOrderRow): TRechargeResponse {
  const secondsLeft = Math.max(0, Math.floor((row.expiresAt.getTime() - Date.now()) / 1000));
  return {
    ...toOrder(row),
    txid: row.txid,
    pix_copy_paste: row.pixCopyPaste,
    qr_code: row.pixCopyPaste,
    expires_in: row.status === 'pending' ? secondsLeft : 0,
    pay_url: deps.psp.attached?.payerPageUrl(row.txid) ?? null,
  };
}

/**
 * The BR Code to show. The standard makes `pixCopiaECola` optional; without it the dynamic BR Code
 * is built from the charge's `location` (EMV QRCPS, as the payer's bank reads it), and without
 * either the charge cannot be paid, which fails the order.
 */
export function brCodeOf(charge: Charge, pixKey: string): string {
  if (charge.pixCopiaECola) return charge.pixCopiaECola;
  if (!charge.location || charge.pixKey !== pixKey)
    throw new PspError('PSP_BAD_RESPONSE', 'charge without pixCopiaECola or location');
  return buildDynamicBrCode({ location: charge.location, merchantName: 'Sorte', merchantCity: 'Sao Paulo' });
}

export interface CreateRechargeInput {
  amountMinor: bigint;
  channelId: bigint;
  method: string;
  description?: string | undefined;
}

/**
 * Creates a deposit order and its PSP charge (`PUT /cob/{txid}`). The order row exists before the
 * charge, so a payment can never arrive for a txid we do not know; when the PSP refuses or cannot be
 * reached the order is marked failed and the player gets PAYMENT_SERVICE_UNAVAILABLE. No money
 * moves here: only a verified PSP notification credits the balance.
 */
export async function createRecharge(
  deps: TDepositDeps,
  site: TSite,
  memberId: bigint,
  input: CreateRechargeInput,
): Promise<TRechargeResponse> {
  const channel = (await findSiteChannels(deps.db, site.id)).find(
    (c) => c.id === input.channelId && c.method === input.method.toLowerCase(),
  );
  if (!channel) throw new AppError('PAYMENT_METHOD_UNAVAILABLE');
  if (input.amountMinor < channel.minMinor || input.amountMinor > channel.maxMinor) {
    throw new AppError('AMOUNT_OUT_OF_RANGE', {
      params: { min: formatMinor(channel.minMinor), max: formatMinor(channel.maxMinor) },
      fieldErrors: { money: 'errors.AMOUNT_OUT_OF_RANGE' },
    });
  }
  await assertDepositAllowed(deps.db, site, memberId, input.amountMinor);
  const psp = deps.psp.connection();
  const member = await findMemberProfile(deps.db, site.id, memberId);
  if (!member) throw new AppError('UNAUTHENTICATED');
  await openMemberAccounts(deps.db, { siteId: site.id, memberId });

  const txid = createTxid();
  const bonusMinor = await cashierOffers().rechargeGiftMinor(
    deps.db,
    site,
    memberId,
    input.amountMinor,
    channel.bonusBps,
  );
  let order = await insertDepositOrder(deps.db, {
    siteId: site.id,
    memberId,
    orderNo: newOrderNo('R'),
    amountMinor: input.amountMinor,
    bonusMinor,
    paymentMethod: channel.method,
    channel: channel.code,
    txid,
    pixCopyPaste: '',
    expiresAt: new Date(Date.now() + channel.expiresSeconds * 1000),
  });
  try {
    const charge = await psp.client.createCharge({
      txid,
      amountMinor: input.amountMinor,
      expiresInSeconds: channel.expiresSeconds,
      pixKey: psp.pixKey,
      ...(member.cpf ? { debtor: { cpf: member.cpf, name: member.realname } } : {}),
      ...(input.description ? { payerRequest: input.description } : {}),
    });
    order = await updateDepositOrder(deps.db, order.id, {
      pixCopyPaste: brCodeOf(charge, psp.pixKey),
      expiresAt: charge.expiresAt,
    });
  } catch (error) {
    await updateDepositOrder(deps.db, order.id, {
      status: 'failed',
      failReason: error instanceof PspError ? error.code : 'psp_error',
    });
    deps.log.error({ err: error, orderNo: order.orderNo }, 'PSP charge creation failed');
    throw new AppError('PAYMENT_SERVICE_UNAVAILABLE', { cause: error });
  }
  return withPayment(deps, order);
}

export async function getRecharge(
  deps: TDepositDeps,
  site: TSite,
  memberId: bigint,
  orderNo: string,
): Promise<TRechargeResponse> {
  await expirePendingOrders(deps.db, memberId);
  const order = await findMemberOrder(deps.db, site.id, memberId, orderNo);
  if (!order) throw new AppError('ORDER_NOT_FOUND');
  return withPayment(deps, order);
}

export interface RecordsPage {
  before?: string | undefined;
  after?: string | undefined;
  limit?: number | undefined;
  period?: TRecordPeriod | undefined;
  status?: string | undefined;
}

/** First instant of the page's period in the site's days (records/periods.ts), or null for all. */
export function sinceOf(
  site: Pick<TSite, 'jurisdiction'>,
  period: TRecordPeriod | undefined,
  now = new Date(),
): Date | null {
  return periodStart(period ?? 'all', now, siteTimeZone(site));
}

export function checkPage(page: RecordsPage): void {
  if (page.before !== undefined && page.after !== undefined) {
    throw new AppError('VALIDATION_FAILED', {
      messageKey: 'validation.invalid',
      fieldErrors: { before: 'validation.invalid' },
    });
  }
}

const DEPOSIT_STATUS_SET = new Set<string>(['pending', 'paid', 'expired', 'refunded', 'failed']);

export async function listRecharges(
  db: Db,
  site: TSite,
  memberId: bigint,
  page: RecordsPage,
): Promise<TRechargeListResponse> {
  checkPage(page);
  if (page.status !== undefined && !DEPOSIT_STATUS_SET.has(page.status)) {
    throw new AppError('VALIDATION_FAILED', { fieldErrors: { status: 'validation.invalid' } });
  }
  await expirePendingOrders(db, memberId);
  const { rows, hasOlder, hasNewer } = await findMemberOrders(db, {
    siteId: site.id,
    memberId,
    before: page.before ? BigInt(page.before) : null,
    after: page.after ? BigInt(page.after) : null,
    limit: page.limit ?? DEFAULT_PAGE,
    since: sinceOf(site, page.period),
    status: (page.status as TDepositStatus | undefined) ?? null,
  });
  return {
    list: rows.map(toOrder),
    next: hasOlder && rows.length > 0 ? rows.at(-1)!.id.toString() : null,
    prev: hasNewer && rows.length > 0 ? rows[0]!.id.toString() : null,
  };
}

/** The expiry job: one process at a time (advisory lock), all overdue charges. */
export async function expireDeposits(db: Db): Promise<number> {
  return db.transaction(async (tx) => {
    if (!(await tryExpiryLock(tx, EXPIRY_LOCK_KEY))) return 0;
    return expirePendingOrders(tx);
  });
}

// ---------------------------------------------------------------------------------------------
// PSP notifications

export type PixOutcome = 'credited' | 'replayed' | 'refunded' | 'unknown_txid' | 'duplicate_payment';

/** A refund id for a Pix: deterministic, so a repeated request is the same refund at the PSP. */
function refundIdOf(endToEndId: string): string {
  return `RF${endToEndId}`.slice(0, 35);
}

interface RefundWork {
  endToEndId: string;
  amountMinor: bigint;
  reason: string;
}

/**
 * What the PSP proved about a deposit's payer before the transaction (pix-settlement.ts): null when
 * the site's profile asks for no proof; else the CPF the PSP listed this Pix under, or none.
 */
export type PayerProof = null | { cpf: string | null };

/**
 * Applies one Pix that our authenticated client read from the PSP (never a callback's own body).
 * The order row is locked, so replays, reordered and concurrent deliveries of the same payment run
 * one after another; the first credits (the wallet transfer under the key `pix:<endToEndId>` and
 * the order update commit together), the others find the order paid by that endToEndId and change
 * nothing. A Pix that must not be credited (amount differs from the order, a payer the profile's
 * rule does not accept, a second payment of a paid charge) is refunded through the PSP after the
 * commit.
 */
export async function applyPixNotification(
  deps: TDepositDeps,
  pix: PixPayment,
  proof: PayerProof,
): Promise<PixOutcome> {
  // The transaction answers what to do after it as a value: a transaction the database runs again
  // (a deadlock) starts from nothing, so no refund or push of a rolled-back try is left behind.
  const applied = await deps.db.transaction((tx) => applyPixInTransaction(tx, pix, proof));
  const paid = applied.credited;
  if (paid) {
    deps.log.info({ orderNo: paid.orderNo, endToEndId: pix.endToEndId }, 'deposit credited');
    await deps.realtime.publishBalance(paid.siteId, paid.memberId, 'deposit_paid', paid.orderNo);
  }
  if (applied.outcome === 'unknown_txid') {
    deps.log.warn(
      { txid: pix.txid, endToEndId: pix.endToEndId },
      'Pix for an unknown txid acknowledged, nothing credited',
    );
  }
  for (const work of applied.refunds) await requestRefund(deps, work);
  return applied.outcome;
}

/** What one Pix did in its transaction, and the work that follows its commit. */
interface PixApplied {
  outcome: PixOutcome;
  refunds: RefundWork[];
  credited: TDepositOrderRow | null;
}

async function applyPixInTransaction(tx: Tx, pix: PixPayment, proof: PayerProof): Promise<PixApplied> {
  const none = { refunds: [], credited: null };
  for (const refund of pix.refunds) {
    if (refund.status === 'DEVOLVIDO' || refund.status === 'NAO_REALIZADO') {
      await markRefundSettled(
        tx,
        pix.endToEndId,
        refund.id,
        refund.status === 'DEVOLVIDO' ? 'returned' : 'failed',
      );
    }
  }
  const order = pix.txid ? await lockOrderByTxid(tx, pix.txid) : null;
  if (!order) return { outcome: 'unknown_txid', ...none };
  const back = (reason: string): RefundWork => ({
    endToEndId: pix.endToEndId,
    amountMinor: pix.amountMinor,
    reason,
  });
  if (order.endToEndId === pix.endToEndId) {
    // A replay. A refund we asked for and never heard back about is asked again (idempotent).
    const askAgain =
      order.status === 'refunded' && order.refundStatus === 'requested' && pix.refunds.length === 0;
    return { outcome: 'replayed', refunds: askAgain ? [back(order.failReason ?? '')] : [], credited: null };
  }
  if (order.endToEndId !== null) {
    // The charge was already paid by another Pix: this money has no order, send it back.
    return { outcome: 'duplicate_payment', refunds: [back('duplicate_payment')], credited: null };
  }
  const refusal = await refusalOf(tx, order, pix, proof);
  if (refusal) {
    await updateDepositOrder(tx, order.id, {
      status: 'refunded',
      endToEndId: pix.endToEndId,
      payerCpf: proof?.cpf ?? pix.payer?.cpf ?? null,
      paidAt: pix.paidAt,
      failReason: refusal,
      refundId: refundIdOf(pix.endToEndId),
      refundStatus: 'requested',
    });
    return { outcome: 'refunded', refunds: [back(refusal)], credited: null };
  }
  return { outcome: 'credited', refunds: [], credited: await creditPix(tx, order, pix, proof) };
}

/**
 * Why a Pix must go back instead of being credited, or null: its amount differs from the order's,
 * or the profile asks for the payer's CPF and the PSP proved another (a member without a CPF on
 * file is bound to the payer's verified CPF, unless another member of the site holds it).
 */
async function refusalOf(
  tx: Tx,
  order: TDepositOrderRow,
  pix: PixPayment,
  proof: PayerProof,
): Promise<string | null> {
  if (pix.amountMinor !== order.amountMinor) return 'amount_mismatch';
  if (proof === null) return null;
  const member = await findMemberProfile(tx, order.siteId, order.memberId, true);
  if (!member || !proof.cpf) return 'cpf_mismatch';
  if (member.cpf !== null) return member.cpf === proof.cpf ? null : 'cpf_mismatch';
  await lockCpf(tx, order.siteId, proof.cpf);
  if (await cpfTakenByOther(tx, order.siteId, order.memberId, proof.cpf)) return 'cpf_mismatch';
  await bindMemberCpf(tx, order.memberId, proof.cpf);
  return null;
}

/** Credits the order: the wallet transfer under `pix:<endToEndId>`, its hooks, the paid order. */
async function creditPix(
  tx: Tx,
  order: TDepositOrderRow,
  pix: PixPayment,
  proof: PayerProof,
): Promise<TDepositOrderRow> {
  await openMemberAccounts(tx, { siteId: order.siteId, memberId: order.memberId });
  const credit = await transfer(tx, {
    siteId: order.siteId,
    kind: 'deposit',
    from: { system: 'psp_clearing' },
    to: { memberId: order.memberId, account: 'cash' },
    amountMinor: order.amountMinor,
    idempotencyKey: `pix:${pix.endToEndId}`,
    reference: `deposit:${order.orderNo}`,
    metadata: { txid: order.txid, orderNo: order.orderNo },
  });
  await depositCredited.emit(tx, {
    siteId: order.siteId,
    memberId: order.memberId,
    orderNo: order.orderNo,
    amountMinor: order.amountMinor,
    giftMinor: order.bonusMinor,
    payerCpf: proof?.cpf ?? pix.payer?.cpf ?? null,
  });
  await notify(tx, {
    siteId: order.siteId,
    memberId: order.memberId,
    kind: 'deposit_paid',
    params: { amount: formatMinor(order.amountMinor), order_no: order.orderNo },
    dedupeKey: `deposit_paid:${order.orderNo}`,
  });
  return updateDepositOrder(tx, order.id, {
    status: 'paid',
    endToEndId: pix.endToEndId,
    payerCpf: proof?.cpf ?? pix.payer?.cpf ?? null,
    paidAt: pix.paidAt,
    creditTransferId: credit.transferId,
  });
}

async function requestRefund(deps: TDepositDeps, work: RefundWork): Promise<void> {
  const connection = deps.psp.attached;
  if (!connection) return;
  try {
    await connection.client.refundPix({
      endToEndId: work.endToEndId,
      refundId: refundIdOf(work.endToEndId),
      amountMinor: work.amountMinor,
      description: 'Sorte: payment returned',
    });
    deps.log.warn({ endToEndId: work.endToEndId, reason: work.reason }, 'Pix refunded instead of credited');
  } catch (error) {
    // The PSP redelivers the Pix until we answer 2xx only for the first delivery; a failed refund
    // stays `requested` and is asked again on the next replay of this Pix.
    deps.log.error({ err: error, endToEndId: work.endToEndId }, 'Pix refund request failed');
  }
}
