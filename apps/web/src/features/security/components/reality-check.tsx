import type { TRealityCheck } from '@sorte/contract';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { Modal } from '../../../components/modal.tsx';
import { formatMoney, formatSignedMoney } from '../../../lib/format.ts';
import { subscribeRealtime } from '../../../lib/realtime-messages.ts';
import '../security.css';

/**
 * The reality check the server sends over the live socket every N minutes of a session: how long
 * the player has been playing and the session's net result, with a way to the limits.
 */
export function RealityCheckDialog() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [check, setCheck] = useState<TRealityCheck | null>(null);
  useEffect(
    () =>
      subscribeRealtime((message) => {
        if (message.type === 'reality_check') setCheck(message as unknown as TRealityCheck);
      }),
    [],
  );
  if (!check) return null;
  const close = () => setCheck(null);
  return (
    <Modal title={t('reality.title')} onClose={close} testId="reality-check">
      <p className="reality-check__text">{t('reality.played', { minutes: check.minutes_played })}</p>
      <dl className="reality-check__figures">
        <div>
          <dt>{t('reality.net_result')}</dt>
          <dd data-testid="reality-net">{formatSignedMoney(check.net_result)}</dd>
        </div>
        <div>
          <dt>{t('reality.staked')}</dt>
          <dd>{formatMoney(check.staked)}</dd>
        </div>
      </dl>
      <div className="reality-check__actions">
        <button type="button" className="button button--primary button--block" onClick={close}>
          {t('reality.keep_playing')}
        </button>
        <button
          type="button"
          className="button button--ghost button--block"
          onClick={() => {
            close();
            void navigate('/responsible-gaming');
          }}
        >
          {t('reality.see_limits')}
        </button>
      </div>
    </Modal>
  );
}
