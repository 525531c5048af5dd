import type { TRound } from '@sorte/contract';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatDateTime, formatMoney, formatMultiplier, formatSignedMoney } from '../../../lib/format.ts';
import { recordLabels, SPORTSBOOK } from '../record-labels.ts';

/** One round as recorded: stake, payout, multiplier, the bet, the outcome and its seeds. */
export function RoundDetails({ round }: { round: TRound }) {
  const { t } = useTranslation();
  const { fairness } = round;
  // A crash bet is fair by the round's place in a hash chain: the same four values, named for it.
  const crash = round.game === 'crash';
  const label = {
    hash: crash ? t('crash.evidence.commitment') : t('lobby.fair.server_seed_hash'),
    seed: crash ? t('crash.evidence.round_hash') : t('lobby.fair.server_seed'),
    client: crash ? t('crash.evidence.public_salt') : t('lobby.fair.client_seed'),
    nonce: crash ? t('crash.evidence.chain_position') : t('lobby.fair.nonce'),
  };
  return (
    <div className="round-details" data-testid="round-details">
      <dl className="round-details__grid">
        <div>
          <dt>{t('lobby.record.game')}</dt>
          <dd>{recordLabels({ game: round.game, brand: '', name: round.game_name }, t).name}</dd>
        </div>
        <div>
          <dt>{t('lobby.record.bet_time')}</dt>
          <dd>{formatDateTime(round.created_at)}</dd>
        </div>
        <div>
          <dt>{t('lobby.record.bet_amount')}</dt>
          <dd>{formatMoney(round.stake)}</dd>
        </div>
        <div>
          <dt>{t('lobby.record.payout')}</dt>
          <dd>{formatMoney(round.payout)}</dd>
        </div>
        <div>
          <dt>{t('lobby.record.multiplier')}</dt>
          <dd>{formatMultiplier(round.multiplier)}</dd>
        </div>
        <div>
          <dt>{t('lobby.record.win_loss')}</dt>
          {round.status === 'active' ? (
            <dd className="is-pending">{t('lobby.record.in_progress')}</dd>
          ) : (
            <dd className={round.win_loss.startsWith('-') ? 'is-loss' : 'is-win'}>
              {formatSignedMoney(round.win_loss)}
            </dd>
          )}
        </div>
      </dl>
      {fairness ? (
        <>
          <h3 className="round-details__title">{t('lobby.fair.seeds')}</h3>
          <dl className="round-details__seeds">
            <div>
              <dt>{label.hash}</dt>
              <dd className="mono">{fairness.server_seed_hash}</dd>
            </div>
            <div>
              <dt>{label.seed}</dt>
              <dd className="mono">{fairness.server_seed ?? t('lobby.fair.not_revealed')}</dd>
            </div>
            <div>
              <dt>{label.client}</dt>
              <dd className="mono">{fairness.client_seed}</dd>
            </div>
            <div>
              <dt>{label.nonce}</dt>
              <dd className="mono">{fairness.nonce}</dd>
            </div>
          </dl>
        </>
      ) : round.game === SPORTSBOOK ? (
        // A sports bet is priced by the house and settled from the match's result, not from seeds.
        <p className="round-details__provider" data-testid="round-sports-note">
          {t('sports.record_note')} <Link to="/sports/my-bets">{t('sports.my_bets.title')}</Link>
        </p>
      ) : (
        <p className="round-details__provider" data-testid="round-provider-note">
          {t('lobby.record.provider_round', { provider: String(round.params.provider ?? '') })}
        </p>
      )}
      <details className="round-details__raw">
        <summary>{t('lobby.record.bet_and_outcome')}</summary>
        <pre className="mono">
          {JSON.stringify({ params: round.params, outcome: round.outcome }, null, 2)}
        </pre>
      </details>
      {round.status === 'settled' && fairness && (
        <Link className="button button--ghost button--small" to={`/fairness?round=${round.id}`}>
          {t('lobby.fair.verify_this')}
        </Link>
      )}
    </div>
  );
}
