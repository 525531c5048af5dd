import type { TKycAction, TKycCheck } from '@sorte/contract';
import { AppError } from '../../errors.ts';

/** The message of each action's refusal ("verify your identity to deposit", … to place bets, …). */
const MESSAGE_KEYS: Record<TKycAction, string> = {
  deposit: 'errors.KYC_REQUIRED',
  bet: 'errors.KYC_REQUIRED_BET',
  withdrawal: 'errors.KYC_REQUIRED_WITHDRAWAL',
};

/** The refusal of an action the site's rules keep until these checks pass; data.kyc says which. */
export function kycRequired(action: TKycAction, missing: readonly TKycCheck[]): AppError {
  return new AppError('KYC_REQUIRED', {
    messageKey: MESSAGE_KEYS[action],
    extra: { kyc: { action, missing_checks: [...missing] } },
  });
}

/** The checks of `required` not in `passed`, in the order required. */
export function missingChecks(required: readonly TKycCheck[], passed: readonly TKycCheck[]): TKycCheck[] {
  return required.filter((check) => !passed.includes(check));
}
