import type { Executor } from '../db/client.ts';
import type { TSite } from './site.ts';

/**
 * What the cashier tells the features above it (ADR 034): deposits and withdrawals emit these and
 * ask these, and the features that care (promotions today) answer them, registered by their
 * plugin when the app starts. So deposits and withdrawals import no feature's internals, and a
 * new listener (compliance screening, ADR 040) joins without touching the money code.
 */

/** A handler run inside the emitting transaction: what it writes commits or rolls back with it. */
export type TTransactionalHandler<T> = (tx: Executor, event: T) => Promise<void>;

/**
 * An event emitted inside a money transaction. Handlers are keyed by their owner, so the same
 * app built twice in one process (tests) registers once; they run in registration order, and a
 * handler that throws fails the transaction, as the code it replaces did.
 */
export class TransactionalEvent<T> {
  private readonly handlers = new Map<string, TTransactionalHandler<T>>();

  on(owner: string, handler: TTransactionalHandler<T>): void {
    this.handlers.set(owner, handler);
  }

  async emit(tx: Executor, event: T): Promise<void> {
    for (const handler of this.handlers.values()) await handler(tx, event);
  }
}

/** A deposit's money reached the member's cash (deposits.service, in the crediting transaction). */
export type TDepositCredited = {
  siteId: bigint;
  memberId: bigint;
  orderNo: string;
  amountMinor: bigint;
  /** The recharge gift the order was quoted when it was created (0 where none is offered). */
  giftMinor: bigint;
  /** The payer's CPF as the PSP proved or reported it (null: unknown). */
  payerCpf: string | null;
};

export const depositCredited = new TransactionalEvent<TDepositCredited>();

/** A withdrawal order was created and its money held (withdrawals.service, in that transaction). */
export type TWithdrawalRequested = {
  siteId: bigint;
  memberId: bigint;
  orderNo: string;
  amountMinor: bigint;
  /** Where the money goes: the PIX key as typed on the card, with its type. */
  pixKey: string;
  pixKeyType: string;
};

export const withdrawalRequested = new TransactionalEvent<TWithdrawalRequested>();

/**
 * Whether the player's withdrawals are held (an AML hold, ADR 040): a held player's orders stay in
 * review and none is approved. Asked inside the approval's transaction; answered by compliance.
 * Until it answers (an app without the compliance routes), nobody is held.
 */
export type TWithdrawalHolds = {
  isHeld(db: Executor, siteId: bigint, memberId: bigint): Promise<boolean>;
};

let holds: TWithdrawalHolds = { isHeld: async () => false };

export function answerWithdrawalHolds(answer: TWithdrawalHolds): void {
  holds = answer;
}

export function withdrawalHolds(): TWithdrawalHolds {
  return holds;
}

/**
 * What a deposit earns and what a withdrawal owes, as the site's campaigns decide. The cashier
 * shows and records these figures; promotions answers them. Until it does (an app without the
 * promotions plugin) nothing is offered and nothing is owed.
 */
export type TCashierOffers = {
  /** The gift rate a channel shows (basis points): the channel's own, or 0 where gifts are off. */
  channelGiftBps(db: Executor, site: TSite, channelBps: number): Promise<number>;
  /** The gift a deposit of `amountMinor` on a channel of `channelBps` earns this member now. */
  rechargeGiftMinor(
    db: Executor,
    site: TSite,
    memberId: bigint,
    amountMinor: bigint,
    channelBps: number,
  ): Promise<bigint>;
  /** The wagering a deposit must see before withdrawal, as a multiple of it (null: none). */
  rechargeRewardWagering(db: Executor, site: TSite): Promise<number | null>;
};

const noOffers: TCashierOffers = {
  channelGiftBps: async () => 0,
  rechargeGiftMinor: async () => 0n,
  rechargeRewardWagering: async () => null,
};

let offers: TCashierOffers = noOffers;

export function answerCashierOffers(answer: TCashierOffers): void {
  offers = answer;
}

export function cashierOffers(): TCashierOffers {
  return offers;
}
