import { SPORTS_ODDS_POLICIES, type TSportsOddsChange } from '@sorte/contract';
import { type ReactNode, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Field, SelectField } from '../../../components/field.tsx';
import { Icon } from '../../../components/icon.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { openModal } from '../../../lib/auth-modal.ts';
import { formatAmount, formatMoney, parseAmountInput } from '../../../lib/format.ts';
import { queryClient, USER_QUERY_KEY } from '../../../lib/query-client.ts';
import { useHasToken, useUser } from '../../../lib/session.ts';
import { SubmitKey } from '../../../lib/submit-key.ts';
import { toast } from '../../../lib/toast.ts';
import { BETS_KEY, cachedLimits, placeSportsBet } from '../api/sports-api.ts';
import { compareDecimal } from '../slip/odds-math.ts';
import {
  acceptChanges,
  clearSlip,
  pendingChanges,
  refuseChanges,
  removePick,
  sameEventConflict,
  setAccumulatorStake,
  setPolicy,
  setSingleStake,
  setTab,
  stakeValue,
  summarise,
  type TSlipPick,
  type TSlipState,
  updatePrice,
  updateSlip,
  useSlip,
} from '../slip/slip-state.ts';
import { currencySymbol, formatOdds, marketName, selectionLabel } from './labels.ts';

/** Why a stake cannot be sent, as a message key with its values; null when it can (or is empty). */
function stakeProblem(text: string): { key: string; values?: Record<string, string> } | null {
  if (text.trim() === '') return null;
  const stake = stakeValue(parseAmountInput(text));
  if (!stake) return { key: 'sports.slip.stake_invalid', values: { example: formatAmount('10.00') } };
  const limits = cachedLimits();
  if (
    limits &&
    (compareDecimal(stake, limits.min_stake) < 0 || compareDecimal(stake, limits.max_stake) > 0)
  ) {
    return {
      key: 'sports.slip.stake_range',
      values: { min: formatMoney(limits.min_stake), max: formatMoney(limits.max_stake) },
    };
  }
  return null;
}

function StakeField({
  value,
  onChange,
  testId,
  label,
}: {
  value: string;
  onChange: (text: string) => void;
  testId: string;
  label: string;
}) {
  const { t } = useTranslation();
  const problem = stakeProblem(value);
  return (
    <Field
      label={label}
      inputMode="decimal"
      autoComplete="off"
      placeholder={formatAmount('10.00')}
      value={value}
      onChange={(event) => onChange(event.target.value)}
      error={problem ? t(problem.key, problem.values) : undefined}
      data-testid={testId}
      addon={<span className="slip__currency">{currencySymbol()}</span>}
    />
  );
}

function PickRow({ pick, stake }: { pick: TSlipPick; stake?: ReactNode }) {
  const { t } = useTranslation();
  const teams = { home_team: pick.homeTeam, away_team: pick.awayTeam };
  const changed = compareDecimal(pick.currentOdds, pick.odds) !== 0;
  return (
    <li className={`slip-pick${pick.suspended ? ' is-suspended' : ''}`} data-testid="slip-pick">
      <div className="slip-pick__head">
        <div className="slip-pick__what">
          <strong>{selectionLabel(pick.selectionCode, teams, t)}</strong>
          <small>{marketName(pick.marketKind, t)}</small>
          <small>{pick.eventName}</small>
        </div>
        <div className="slip-pick__odds">
          {changed && <s className="slip-pick__old">{formatOdds(pick.odds)}</s>}
          <strong className={pick.moved ? `is-${pick.moved}` : undefined} data-testid="slip-pick-odds">
            {formatOdds(pick.currentOdds)}
          </strong>
          {pick.suspended && <span className="slip-pick__badge">{t('sports.suspended')}</span>}
        </div>
        <button
          type="button"
          className="icon-button slip-pick__remove"
          aria-label={t('sports.slip.remove', { name: selectionLabel(pick.selectionCode, teams, t) })}
          onClick={() => updateSlip((state) => removePick(state, pick.selectionId))}
        >
          <Icon name="close" size={18} />
        </button>
      </div>
      {stake}
    </li>
  );
}

/** What a refusal changes on the slip: new prices wait for the player, suspended picks are marked. */
function applyRefusal(error: ApiError): void {
  const data = (error.data ?? {}) as { changes?: TSportsOddsChange[]; selection_ids?: string[] };
  if (error.code === 'ODDS_CHANGED' && Array.isArray(data.changes)) {
    const changes = data.changes;
    // The server refused these prices under the slip's policy, so the same policy leaves them
    // waiting for the player's accept or refuse.
    updateSlip((state) =>
      changes.reduce(
        (next, change) => updatePrice(next, change.selection_id, { odds: change.odds_now }),
        state,
      ),
    );
  }
  if (
    (error.code === 'MARKET_SUSPENDED' || error.code === 'MARKET_CLOSED') &&
    Array.isArray(data.selection_ids)
  ) {
    updateSlip((state) =>
      data.selection_ids!.reduce((next, id) => updatePrice(next, id, { suspended: true }), state),
    );
  }
}

/**
 * The bet slip: singles and the accumulator (múltipla), stakes in the reader's digits, the potential
 * return, price changes to accept or refuse, and placement with one Idempotency-Key per bet.
 */
export function BetSlipBody({ onPlaced }: { onPlaced?: () => void }) {
  const { t } = useTranslation();
  const slip = useSlip();
  const hasToken = useHasToken();
  const { user } = useUser();
  const tabsId = useId();
  const keys = useRef(new Map<string, SubmitKey>());
  const [busy, setBusy] = useState(false);
  // A bet on a live match is confirmed after the site's in-play delay (a few seconds): say so.
  const [slow, setSlow] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [placed, setPlaced] = useState<number>(0);
  const summary = summarise(slip, (text) => parseAmountInput(text));
  const changes = pendingChanges(slip);
  const conflict = slip.tab === 'accumulator' && sameEventConflict(slip);
  const suspended = slip.picks.some((pick) => pick.suspended);
  const stakeErrors =
    slip.tab === 'accumulator'
      ? stakeProblem(slip.accumulatorStake) !== null
      : slip.picks.some((pick) => stakeProblem(slip.singleStakes[pick.selectionId] ?? '') !== null);
  const maxPayout = cachedLimits()?.max_payout ?? null;
  const overPayout =
    maxPayout !== null && summary.bets.some((bet) => compareDecimal(bet.potentialReturn, maxPayout) > 0);
  const blocked =
    busy ||
    summary.bets.length === 0 ||
    changes.length > 0 ||
    conflict ||
    suspended ||
    stakeErrors ||
    overPayout;

  const keyFor = (name: string) => {
    let key = keys.current.get(name);
    if (!key) {
      key = new SubmitKey();
      keys.current.set(name, key);
    }
    return key;
  };

  const place = async () => {
    setError(null);
    setBusy(true);
    const slowTimer = setTimeout(() => setSlow(true), 1500);
    let count = 0;
    try {
      for (const bet of summary.bets) {
        const body = {
          type: slip.tab,
          stake: bet.stake,
          legs: bet.legs.map((leg) => ({ selection_id: leg.selectionId, odds: leg.odds })),
          accept_odds_changes: slip.policy,
        };
        const name = slip.tab === 'accumulator' ? 'accumulator' : `single:${bet.legs[0]?.selectionId}`;
        const key = keyFor(name);
        await placeSportsBet(body, key.for(body));
        key.done();
        count += 1;
        if (slip.tab === 'single') {
          updateSlip((state) => removePick(state, bet.legs[0]?.selectionId ?? ''));
        }
      }
      if (slip.tab === 'accumulator') updateSlip(clearSlip);
      setPlaced(count);
      toast.success(t('sports.slip.placed', { count }));
      onPlaced?.();
    } catch (thrown) {
      if (thrown instanceof ApiError) {
        applyRefusal(thrown);
        setError(thrown.message);
      } else {
        setError(t('common.error_generic'));
      }
      if (count > 0) setPlaced(count);
    } finally {
      clearTimeout(slowTimer);
      setSlow(false);
      setBusy(false);
      void queryClient.invalidateQueries({ queryKey: USER_QUERY_KEY });
      void queryClient.invalidateQueries({ queryKey: BETS_KEY });
    }
  };

  if (slip.picks.length === 0) {
    return (
      <div className="slip__empty" data-testid="slip-empty">
        {placed > 0 ? (
          <>
            <p className="slip__placed" role="status">
              <Icon name="check" size={20} /> {t('sports.slip.placed', { count: placed })}
            </p>
            <Link to="/sports/my-bets" className="button button--ghost button--small">
              {t('sports.my_bets.title')}
            </Link>
          </>
        ) : (
          <p>{t('sports.slip.empty')}</p>
        )}
      </div>
    );
  }

  const tab = (value: TSlipState['tab']) => (
    <button
      type="button"
      role="tab"
      id={`${tabsId}-${value}`}
      aria-selected={slip.tab === value}
      className={`tabs__tab${slip.tab === value ? ' is-active' : ''}`}
      disabled={value === 'accumulator' && slip.picks.length < 2}
      onClick={() => updateSlip((state) => setTab(state, value))}
      data-testid={`slip-tab-${value}`}
    >
      {t(`sports.slip.${value}`)}
    </button>
  );

  return (
    <div className="slip" data-testid="bet-slip">
      <div className="slip__bar">
        <div className="tabs slip__tabs" role="tablist" aria-label={t('sports.slip.title')}>
          {tab('single')}
          {tab('accumulator')}
        </div>
        <button
          type="button"
          className="link-button"
          onClick={() => updateSlip(clearSlip)}
          data-testid="slip-clear"
        >
          {t('sports.slip.clear')}
        </button>
      </div>

      {changes.length > 0 && (
        <div className="slip__banner" role="alert" data-testid="slip-odds-changed">
          <p>{t('sports.slip.odds_changed')}</p>
          <div className="slip__banner-actions">
            <button
              type="button"
              className="button button--primary button--small"
              onClick={() => updateSlip(acceptChanges)}
              data-testid="slip-accept-odds"
            >
              {t('sports.slip.accept')}
            </button>
            <button
              type="button"
              className="button button--ghost button--small"
              onClick={() => updateSlip(refuseChanges)}
              data-testid="slip-refuse-odds"
            >
              {t('sports.slip.refuse')}
            </button>
          </div>
        </div>
      )}

      <div role="tabpanel" aria-labelledby={`${tabsId}-${slip.tab}`}>
        <ul className="slip__picks">
          {slip.picks.map((pick) => (
            <PickRow
              key={pick.selectionId}
              pick={pick}
              stake={
                slip.tab === 'single' ? (
                  <StakeField
                    label={t('sports.slip.stake')}
                    value={slip.singleStakes[pick.selectionId] ?? ''}
                    onChange={(text) => updateSlip((state) => setSingleStake(state, pick.selectionId, text))}
                    testId="slip-single-stake"
                  />
                ) : undefined
              }
            />
          ))}
        </ul>
      </div>

      {conflict && (
        <p className="slip__warning" role="alert">
          {t('sports.slip.same_event')}
        </p>
      )}

      {slip.tab === 'accumulator' && (
        <>
          <p className="slip__line">
            <span>{t('sports.slip.total_odds')}</span>
            <strong data-testid="slip-total-odds">{formatOdds(summary.combinedOdds ?? '1.00')}</strong>
          </p>
          <StakeField
            label={t('sports.slip.stake')}
            value={slip.accumulatorStake}
            onChange={(text) => updateSlip((state) => setAccumulatorStake(state, text))}
            testId="slip-accumulator-stake"
          />
        </>
      )}

      <SelectField
        label={t('sports.slip.policy_label')}
        value={slip.policy}
        options={SPORTS_ODDS_POLICIES}
        optionLabel={(policy) => t(`sports.slip.policy.${policy}`)}
        onChange={(policy) => updateSlip((state) => setPolicy(state, policy))}
        testId="slip-policy"
      />

      <dl className="slip__totals">
        <div>
          <dt>{t('sports.slip.total_stake')}</dt>
          <dd data-testid="slip-total-stake">{formatMoney(summary.totalStake)}</dd>
        </div>
        <div>
          <dt>{t('sports.slip.potential_return')}</dt>
          <dd data-testid="slip-potential-return">{formatMoney(summary.totalReturn)}</dd>
        </div>
        {user && (
          <div>
            <dt>{t('sports.slip.balance')}</dt>
            <dd>{formatMoney(user.money)}</dd>
          </div>
        )}
      </dl>

      {overPayout && maxPayout && (
        <p className="slip__warning" role="alert" data-testid="slip-max-payout">
          {t('sports.slip.max_payout', { max: formatMoney(maxPayout) })}
        </p>
      )}

      {error && (
        <p className="form__alert" role="alert" data-testid="slip-error">
          {error}
        </p>
      )}

      {hasToken ? (
        <button
          type="button"
          className="button button--primary button--block button--large"
          disabled={blocked}
          onClick={() => void place()}
          data-testid="slip-place"
        >
          {busy
            ? t(slow ? 'sports.slip.confirming' : 'common.please_wait')
            : t('sports.slip.place', { count: Math.max(1, summary.bets.length) })}
        </button>
      ) : (
        <button
          type="button"
          className="button button--primary button--block button--large"
          onClick={() => openModal('login')}
          data-testid="slip-login"
        >
          {t('sports.slip.login')}
        </button>
      )}
    </div>
  );
}
