import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { LoadFail } from '../../../components/load-fail.tsx';
import { PageFrame } from '../../../components/page-frame.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import type { ApiError } from '../../../lib/api-client.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { toast } from '../../../lib/toast.ts';
import { fetchRound } from '../../game-record/api/game-record-api.ts';
import {
  HISTORY_KEY,
  rotateSeeds,
  SEEDS_KEY,
  setClientSeed,
  type TRevealedPair,
  useSeedHistory,
  useSeeds,
} from '../api/fairness-api.ts';
import { type TVerification, verifyRound } from '../verify-round.ts';
import '../../game-record/game-record.css';
import '../fairness.css';

function RevealedPair({ pair }: { pair: TRevealedPair }) {
  const { t } = useTranslation();
  return (
    <li className="fair-pair">
      <span className="fair-pair__label">{t('lobby.fair.server_seed')}</span>
      <span className="mono">{pair.server_seed}</span>
      <span className="fair-pair__label">{t('lobby.fair.server_seed_hash')}</span>
      <span className="mono">{pair.server_seed_hash}</span>
      <span className="fair-pair__label">{t('lobby.fair.client_seed')}</span>
      <span className="mono">{pair.client_seed}</span>
      <small>{t('lobby.fair.pair_meta', { bets: pair.bets, date: formatDateTime(pair.revealed_at) })}</small>
    </li>
  );
}

function CurrentSeeds() {
  const { t } = useTranslation();
  const seeds = useSeeds();
  const history = useSeedHistory();
  const [draft, setDraft] = useState<string | null>(null);
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: SEEDS_KEY });
    void queryClient.invalidateQueries({ queryKey: HISTORY_KEY });
  };
  const change = useMutation({
    mutationFn: (seed: string) => setClientSeed(seed),
    onSuccess: () => {
      setDraft(null);
      toast.success(t('lobby.fair.client_seed_saved'));
      refresh();
    },
  });
  const rotate = useMutation({
    mutationFn: rotateSeeds,
    onSuccess: () => {
      toast.success(t('lobby.fair.rotated'));
      refresh();
    },
  });
  const revealed = rotate.data?.revealed ?? change.data?.revealed;
  if (seeds.isPending) return <Spinner />;
  if (seeds.isError || !seeds.data) {
    return <LoadFail onRetry={() => void seeds.refetch()} />;
  }
  const clientSeed = draft ?? seeds.data.client_seed;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const seed = clientSeed.trim();
    if (seed && seed !== seeds.data.client_seed) change.mutate(seed);
  };
  return (
    <>
      <section className="card fair-card">
        <h2 className="card__title">{t('lobby.fair.current')}</h2>
        <p className="fair-label">{t('lobby.fair.server_seed_hash')}</p>
        <p className="mono" data-testid="server-seed-hash">
          {seeds.data.server_seed_hash}
        </p>
        <p className="fair-label">{t('lobby.fair.next_nonce')}</p>
        <p className="mono">{seeds.data.nonce}</p>
        <form className="fair-form" onSubmit={submit}>
          <label className="fair-label" htmlFor="client-seed">
            {t('lobby.fair.client_seed')}
          </label>
          <div className="fair-form__row">
            <input
              id="client-seed"
              name="client_seed"
              data-testid="client-seed-input"
              value={clientSeed}
              maxLength={64}
              onChange={(event) => setDraft(event.target.value)}
            />
            <button
              type="submit"
              className="button button--primary button--small"
              disabled={change.isPending}
            >
              {t('lobby.fair.save')}
            </button>
          </div>
          <small>{t('lobby.fair.client_seed_hint')}</small>
        </form>
        <button
          type="button"
          className="button button--ghost button--block"
          data-testid="rotate-seeds"
          disabled={rotate.isPending}
          onClick={() => rotate.mutate()}
        >
          {t('lobby.fair.rotate')}
        </button>
        {revealed && (
          <div className="fair-revealed" role="status">
            <p className="fair-label">{t('lobby.fair.just_revealed')}</p>
            <p className="mono" data-testid="revealed-seed">
              {revealed.server_seed}
            </p>
          </div>
        )}
      </section>
      <section className="card fair-card">
        <h2 className="card__title">{t('lobby.fair.history')}</h2>
        {(history.data?.list ?? []).length === 0 ? (
          <p className="fair-label">{t('lobby.fair.no_history')}</p>
        ) : (
          <ul className="fair-history">
            {(history.data?.list ?? []).map((pair) => (
              <RevealedPair key={pair.server_seed_hash} pair={pair} />
            ))}
          </ul>
        )}
      </section>
    </>
  );
}

function Verifier() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const [roundId, setRoundId] = useState(params.get('round') ?? '');
  const verify = useMutation({
    mutationFn: async (id: string) => verifyRound(await fetchRound(id)),
  });
  const result: TVerification | undefined = verify.data;
  return (
    <section className="card fair-card">
      <h2 className="card__title">{t('lobby.fair.verifier')}</h2>
      <p className="fair-label">{t('lobby.fair.verifier_hint')}</p>
      <form
        className="fair-form__row"
        onSubmit={(event) => {
          event.preventDefault();
          if (/^[1-9]\d{0,17}$/.test(roundId.trim())) verify.mutate(roundId.trim());
        }}
      >
        <input
          name="round_id"
          inputMode="numeric"
          maxLength={18}
          value={roundId}
          placeholder={t('lobby.fair.round_id')}
          aria-label={t('lobby.fair.round_id')}
          onChange={(event) => setRoundId(event.target.value.replace(/\D/g, ''))}
        />
        <button
          type="submit"
          className="button button--primary button--small"
          data-testid="fairness-verify"
          disabled={verify.isPending}
        >
          {t('lobby.fair.verify')}
        </button>
      </form>
      {verify.isError && (
        <p className="fair-result is-loss" role="alert" data-testid="verify-result" data-status="error">
          {(verify.error as ApiError).message}
        </p>
      )}
      {result && (
        <p
          className={`fair-result ${result.status === 'match' ? 'is-win' : 'is-loss'}`}
          role="status"
          data-testid="verify-result"
          data-status={result.status}
        >
          {t(`lobby.fair.result.${result.status}`)}
        </p>
      )}
    </section>
  );
}

/** `/fairness`: the seed pair in use, client seed, rotation, revealed seeds and the round verifier. */
export default function FairnessPage() {
  const { t } = useTranslation();
  return (
    <PageFrame title={t('lobby.fair.title')} requiresLogin>
      <div className="fairness">
        <p className="fair-intro">{t('lobby.fair.intro')}</p>
        <CurrentSeeds />
        <Verifier />
      </div>
    </PageFrame>
  );
}
