import type { TKycCheck, TKycStatus } from '@sorte/contract';
import { useTranslation } from 'react-i18next';
import { formatMoney } from '../../../lib/format.ts';
import { useKycStatus, useStartVerification } from '../api/security-api.ts';
import { showFailure } from './form-error.ts';

type TRequirement = TKycStatus['requirements'][number];

/** When a rule applies, in the player's words ("before you deposit", "above R$ 2.000,00 …"). */
function whenText(t: (key: string, options?: Record<string, string>) => string, rule: TRequirement): string {
  if (rule.action === 'withdrawal' && (rule.above_amount || rule.above_total)) {
    return t('kyc.before_withdrawal_above', {
      amount: formatMoney(rule.above_amount ?? rule.above_total),
      total: formatMoney(rule.above_total ?? rule.above_amount),
    });
  }
  return t(`kyc.before_${rule.action}`);
}

/**
 * Identity verification on /security-center: each check the site requires (CPF, document and
 * selfie) passed or still needed, before what and why (the rule's legal basis), the provider's
 * decision, and the button that starts the verification (the CPF check runs at once), then the link
 * to the provider's capture page.
 */
export function KycCard() {
  const { t } = useTranslation();
  const status = useKycStatus();
  const start = useStartVerification();
  if (!status.data) return null;
  const kyc = status.data;
  const checks: TKycCheck[] = [...kyc.passed_checks, ...kyc.missing_checks];
  const rules = kyc.requirements.filter((rule) => rule.required_checks.length > 0);
  if (checks.length === 0 && rules.length === 0) return null;
  const session = kyc.session;
  const waiting = session?.status === 'submitted' || session?.status === 'manual_review';
  const rejected = session?.status === 'rejected';
  const onStart = async () => {
    try {
      await start.mutateAsync();
    } catch (error) {
      showFailure(error, () => undefined);
    }
  };
  return (
    <section className="security-card" aria-labelledby="security-kyc" data-testid="kyc-card">
      <h2 id="security-kyc">{t('kyc.title')}</h2>
      <p className="security-note" data-testid="kyc-summary">
        {kyc.missing_checks.length === 0 ? t('kyc.verified') : t('kyc.not_verified')}
      </p>
      <ul className="security-list">
        {checks.map((check) => (
          <li key={check} className="security-row" data-testid={`kyc-check-${check}`}>
            <div>
              <strong>{t(`kyc.check_${check}`)}</strong>
              <span className="security-row__value">
                {kyc.passed_checks.includes(check) ? t('kyc.passed') : t('kyc.needed')}
              </span>
            </div>
          </li>
        ))}
      </ul>
      {rules.length > 0 && (
        <ul className="security-list security-list--compact" aria-label={t('kyc.why_title')}>
          {rules.map((rule) => (
            <li key={rule.action} className="security-row">
              <div>
                <strong>
                  {whenText(t, rule)}:{' '}
                  {rule.required_checks.map((check) => t(`kyc.check_${check}`)).join(', ')}
                </strong>
                <span className="security-row__value">
                  {t('kyc.why', {
                    // The rule's own message in the player's language; the server's text otherwise.
                    basis: t(`kyc.legal_basis.${rule.legal_basis_key}`, { defaultValue: rule.legal_basis }),
                  })}
                </span>
              </div>
            </li>
          ))}
        </ul>
      )}
      {session && (
        <p className="security-note" data-testid="kyc-session-status">
          {t(`kyc.status_${session.status}`)}
          {session.reason ? ` ${t('kyc.reason', { reason: session.reason })}` : ''}
        </p>
      )}
      {kyc.missing_checks.length > 0 && !waiting && !rejected && (
        <>
          <p className="security-note">{t('kyc.capture_hint')}</p>
          {session?.capture_url ? (
            // The provider's capture page, in this tab: on a phone its camera opens there.
            <a
              className="button button--primary button--block"
              href={session.capture_url}
              data-testid="kyc-continue"
            >
              {t('kyc.continue')}
            </a>
          ) : (
            <button
              type="button"
              className="button button--primary button--block"
              disabled={start.isPending}
              onClick={() => void onStart()}
              data-testid="kyc-start"
            >
              {t('kyc.start')}
            </button>
          )}
        </>
      )}
    </section>
  );
}
