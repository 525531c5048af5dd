import { createHash } from 'node:crypto';
import { pepFlagged } from '../../core/kyc-events.ts';
import { answerWithdrawalHolds, depositCredited, withdrawalRequested } from '../../core/money-events.ts';
import { sessionOpened } from '../../core/session-events.ts';
import { insertOutbox, isHeld } from './aml.repo.ts';

/**
 * The device identifier the rules compare: the SHA-256 of the device id the browser keeps (never
 * the user agent, which every phone of a model and browser version shares); none without one.
 */
export function deviceOf(deviceId: string | null): string | undefined {
  if (!deviceId) return undefined;
  return createHash('sha256').update(deviceId).digest('hex');
}

/**
 * Compliance listens to the money, session and KYC events (ADR 040): each writes one outbox row in the
 * transaction that commits the deposit, the withdrawal request, the session or a PEP flag, so a rolled-back
 * event leaves none and a committed one is screened even after a crash. It also answers the
 * cashier's question whether a player's withdrawals are held. Registered when the app starts.
 */
export function listenForScreening(): void {
  depositCredited.on('aml', (tx, event) =>
    insertOutbox(tx, {
      siteId: event.siteId,
      memberId: event.memberId,
      kind: 'deposit',
      amountMinor: event.amountMinor,
      reference: event.orderNo,
      identifiers: event.payerCpf ? { payer_cpf: event.payerCpf } : {},
    }),
  );
  withdrawalRequested.on('aml', (tx, event) =>
    insertOutbox(tx, {
      siteId: event.siteId,
      memberId: event.memberId,
      kind: 'withdrawal',
      amountMinor: event.amountMinor,
      reference: event.orderNo,
      identifiers: { pix_key: `${event.pixKeyType}:${event.pixKey}` },
    }),
  );
  sessionOpened.on('aml', (tx, event) => {
    const device = deviceOf(event.deviceId);
    return insertOutbox(tx, {
      siteId: event.siteId,
      memberId: event.memberId,
      kind: 'login',
      amountMinor: 0n,
      reference: `session:${event.sessionId}`,
      identifiers: { ...(event.ip ? { ip: event.ip } : {}), ...(device ? { device } : {}) },
    });
  });
  pepFlagged.on('aml', (tx, event) =>
    insertOutbox(tx, {
      siteId: event.siteId,
      memberId: event.memberId,
      kind: 'kyc',
      amountMinor: 0n,
      reference: `kyc:pep:${event.kycSessionId}`,
      identifiers: {},
    }),
  );
  answerWithdrawalHolds({ isHeld });
}
