import type { TTermsStatus, TTermsVersion } from '@sorte/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Modal } from '../../components/modal.tsx';
import { api } from '../../lib/api-client.ts';
import { queryClient, USER_QUERY_KEY } from '../../lib/query-client.ts';
import { useUser } from '../../lib/session.ts';

/**
 * A new version of the terms is in force and waits for the player's acceptance: bets and deposits
 * are refused (TERMS_NOT_ACCEPTED) until the player accepts it here.
 */
export function TermsAcceptModal({
  pending,
  onAccepted,
}: {
  pending: TTermsVersion;
  onAccepted: () => void;
}) {
  const { t, i18n } = useTranslation();
  const [busy, setBusy] = useState(false);
  const accept = async () => {
    setBusy(true);
    try {
      await api.post<TTermsStatus>('/api/terms/accept', { version: pending.version });
      onAccepted();
    } finally {
      setBusy(false);
    }
  };
  const date = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'long' }).format(
    new Date(pending.effective_at),
  );
  return (
    // The player may not dismiss it: accepting is the way back to playing.
    <Modal title={t('terms_update.title')} onClose={() => undefined} testId="terms-modal">
      <p className="modal__lead">{t('terms_update.lead', { version: pending.version, date })}</p>
      {pending.summary ? <p data-testid="terms-summary">{pending.summary}</p> : null}
      <p>
        <Link to="/information-center/support#terms">{t('terms_update.read')}</Link>
      </p>
      <button
        type="button"
        className="button button--primary button--block button--large"
        disabled={busy}
        onClick={accept}
      >
        {t('terms_update.accept')}
      </button>
    </Modal>
  );
}

/** Shows the acceptance modal while the logged-in player's user info reports pending terms. */
export function TermsGate() {
  const { user } = useUser();
  const pending = user?.terms_pending ?? null;
  if (!pending) return null;
  return (
    <TermsAcceptModal
      pending={pending}
      onAccepted={() => void queryClient.invalidateQueries({ queryKey: USER_QUERY_KEY })}
    />
  );
}
