import { TransactionalEvent } from './money-events.ts';

/**
 * A member session was opened (login, sign-up, a remembered device resuming), emitted by the
 * sessions module inside the transaction that inserts the session row, so what a listener writes
 * (the AML outbox, ADR 040) commits with the session or not at all.
 */
export type TSessionOpened = {
  siteId: bigint;
  memberId: bigint;
  sessionId: bigint;
  ip: string | null;
  userAgent: string | null;
  /** The browser's device id (TClient), null when the client sent none. */
  deviceId: string | null;
};

export const sessionOpened = new TransactionalEvent<TSessionOpened>();
