import { REFERRAL_SIGNALS } from '@sorte/contract';
import type { TJurisdiction } from '../sites/sites.schema.ts';

/**
 * The identity signals that make an invitee "the same person" as their inviter (ADR 030). Each is
 * something the person cannot share with a stranger by accident and the platform has verified or
 * observed itself, not typed by the player:
 * - `cpf`: the account's CPF (checked against the national registry at sign-up on br),
 * - `payer_cpf`: the CPF of the bank account a paid deposit came from (told by the PSP),
 * - `pix_key`: a bank card's PIX key or holder CPF (where withdrawals go),
 * - `ip`: a public client address the account registered or logged in from.
 * A CPF matches a CPF from any of the first three (A's account CPF = B's payer CPF is the attack
 * of issue 34). Names and phone numbers are typed by the player and not checked: not signals.
 */
export const IDENTITY_SIGNALS = REFERRAL_SIGNALS;
export type TIdentitySignal = (typeof IDENTITY_SIGNALS)[number];

/** The rewards for bringing a player that a shared signal stops. */
export type TReferralReward = 'invitation' | 'commission';

/** The signals each jurisdiction profile compares, as data. */
export const SELF_REFERRAL_SIGNALS: Record<TJurisdiction, readonly TIdentitySignal[]> = {
  intl: IDENTITY_SIGNALS,
  br: IDENTITY_SIGNALS,
};
