import { TransactionalEvent } from './money-events.ts';

/**
 * KYC flagged a member as a politically exposed person, emitted by the KYC module inside the
 * transaction that sets the flag, so what a listener writes (the AML outbox, ADR 040) commits with
 * the flag or not at all. Emitted once per member: a repeated flag changes nothing.
 */
export type TPepFlagged = {
  siteId: bigint;
  memberId: bigint;
  /** The KYC session whose decision carried the flag. */
  kycSessionId: bigint;
};

export const pepFlagged = new TransactionalEvent<TPepFlagged>();
