import type { TCrashChain } from '@sorte/contract';
import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { GuestNotice } from '../../../components/guest-notice.tsx';
import { LoadFail } from '../../../components/load-fail.tsx';
import { PageFrame } from '../../../components/page-frame.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import type { ApiError } from '../../../lib/api-client.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { useHasToken } from '../../../lib/session.ts';
import { toast } from '../../../lib/toast.ts';
import { fetchRound } from '../../game-record/api/game-record-api.ts';
import {
  HISTORY_KEY,
  rotateSeeds,
  SEEDS_KEY,
  setClientSeed,
  type TRevealedPair,
  type TSeedPair,
  useCrashChains,
  useSeedHistory,
  useSeeds,
} from '../api/fairness-api.ts';
import {
  type TVerification,
  verifyChainSalt,
  verifyRound,
  verifySeedHistory,
  verifySeedRotation,
} from '../verify-round.ts';
import '../../game-record/game-record.css';
import '../fairness.css';

/** A check done in the browser: ✓ when it holds, ✗ with the reason otherwise. */
function Check({ ok, text, testId }: { ok: boolean; text: string; testId?: string }) {
  return (
    <p
      className={`fair-check ${ok ? 'is-win' : 'is-loss'}`}
      role={ok ? undefined : 'alert'}
      data-testid={testId}
      data-status={ok ? 'match' : 'mismatch'}
    >
      <span aria-hidden="true">{ok ? '✓' : '✗'}</span> {text}
    </p>
  );
}

function RevealedPair({ pair, link }: { pair: TRevealedPair; link: 'linked' | 'match' | 'mismatch' }) {
  const { t } = useTranslation();
  return (
    <li className="fair-pair">
      <span className="fair-pair__label">{t('lobby.fair.server_seed')}</span>
      <span className="mono">{pair.server_seed}</span>
      <span className="fair-pair__label">{t('lobby.fair.server_seed_hash')}</span>
      <span className="mono">{pair.server_seed_hash}</span>
      {pair.next_server_seed_hash && (
        <>
          <span className="fair-pair__label">{t('lobby.fair.pair_next')}</span>
          <span className="mono">{pair.next_server_seed_hash}</span>
        </>
      )}
      <span className="fair-pair__label">{t('lobby.fair.client_seed')}</span>
      <span className="mono">{pair.client_seed}</span>
      <small>{t('lobby.fair.pair_meta', { bets: pair.bets, date: formatDateTime(pair.revealed_at) })}</small>
      <Check
        ok={link !== 'mismatch'}
        text={t(`lobby.fair.link_${link === 'linked' ? 'ok' : link === 'match' ? 'seed_ok' : 'bad'}`)}
        testId="pair-check"
      />
    </li>
  );
}

type TRotated = { revealed: TRevealedPair; current: TSeedPair };

function CurrentSeeds() {
  const { t } = useTranslation();
  const seeds = useSeeds();
  const history = useSeedHistory();
  const [draft, setDraft] = useState<string | null>(null);
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: SEEDS_KEY });
    void queryClient.invalidateQueries({ queryKey: HISTORY_KEY });
  };
  // The page checks each rotation against the hashes it showed just before (active and next).
  const [rotated, setRotated] = useState<{ result: TRotated; check: 'match' | 'mismatch' } | null>(null);
  const settle = (result: TRotated, before: TSeedPair) => {
    setRotated({ result, check: verifySeedRotation(before, result) });
    refresh();
  };
  const change = useMutation({
    mutationFn: async ({ seed, before }: { seed: string; before: TSeedPair }) => ({
      result: await setClientSeed(seed),
      before,
    }),
    onSuccess: ({ result, before }) => {
      setDraft(null);
      toast.success(t('lobby.fair.client_seed_saved'));
      settle(result, before);
    },
  });
  const rotate = useMutation({
    mutationFn: async (before: TSeedPair) => ({ result: await rotateSeeds(), before }),
    onSuccess: ({ result, before }) => {
      toast.success(t('lobby.fair.rotated'));
      settle(result, before);
    },
  });
  const historyList = history.data?.list ?? [];
  const links = verifySeedHistory(historyList);
  if (seeds.isPending) return <Spinner />;
  if (seeds.isError || !seeds.data) {
    return <LoadFail onRetry={() => void seeds.refetch()} />;
  }
  const clientSeed = draft ?? seeds.data.client_seed;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const seed = clientSeed.trim();
    if (seed && seed !== seeds.data.client_seed) change.mutate({ seed, before: seeds.data });
  };
  return (
    <>
      <section className="card fair-card">
        <h2 className="card__title">{t('lobby.fair.current')}</h2>
        <p className="fair-label">{t('lobby.fair.server_seed_hash')}</p>
        <p className="mono" data-testid="server-seed-hash">
          {seeds.data.server_seed_hash}
        </p>
        <p className="fair-label">{t('lobby.fair.next_server_seed_hash')}</p>
        <p className="mono" data-testid="next-server-seed-hash">
          {seeds.data.next_server_seed_hash}
        </p>
        <small className="fair-hint">{t('lobby.fair.next_hint')}</small>
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
          onClick={() => rotate.mutate(seeds.data)}
        >
          {t('lobby.fair.rotate')}
        </button>
        {rotated && (
          <div className="fair-revealed" role="status">
            <p className="fair-label">{t('lobby.fair.just_revealed')}</p>
            <p className="mono" data-testid="revealed-seed">
              {rotated.result.revealed.server_seed}
            </p>
            <Check
              ok={rotated.check === 'match'}
              text={t(rotated.check === 'match' ? 'lobby.fair.rotation_ok' : 'lobby.fair.rotation_bad')}
              testId="rotation-check"
            />
          </div>
        )}
      </section>
      <section className="card fair-card">
        <h2 className="card__title">{t('lobby.fair.history')}</h2>
        {historyList.length === 0 ? (
          <p className="fair-label">{t('lobby.fair.no_history')}</p>
        ) : (
          <ul className="fair-history">
            {historyList.map((pair, i) => (
              <RevealedPair key={pair.server_seed_hash} pair={pair} link={links[i]!} />
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

function CrashChainItem({ chain }: { chain: TCrashChain }) {
  const { t } = useTranslation();
  const salt = verifyChainSalt(chain);
  return (
    <li className="fair-pair" data-testid="crash-chain">
      <span className="fair-pair__label">
        {t('lobby.fair.crash_terminating', { date: formatDateTime(chain.committed_at) })}
      </span>
      <span className="mono">{chain.terminating_hash}</span>
      <small>{t('lobby.fair.crash_rounds', { played: chain.rounds_played, length: chain.length })}</small>
      <span className="fair-pair__label">{t('lobby.fair.crash_salt')}</span>
      {chain.salt === null ? (
        <small data-testid="crash-salt-pending">{t('lobby.fair.crash_salt_pending')}</small>
      ) : (
        <span className="mono">{chain.salt}</span>
      )}
      {salt === 'server' && <small>{t('lobby.fair.crash_salt_server')}</small>}
      {(salt === 'match' || salt === 'mismatch') && (
        <>
          <details className="fair-inputs">
            <summary>
              {t('lobby.fair.crash_salt_inputs', {
                date: formatDateTime(chain.salt_fixed_at),
                count: chain.salt_inputs.length,
              })}
            </summary>
            <ol>
              {chain.salt_inputs.map((input) => (
                <li key={input.bet_id}>
                  <span className="fair-pair__label">#{input.bet_id}</span>{' '}
                  <span className="mono">{input.client_seed}</span>
                </li>
              ))}
            </ol>
          </details>
          <Check
            ok={salt === 'match'}
            text={t(salt === 'match' ? 'lobby.fair.crash_salt_ok' : 'lobby.fair.crash_salt_bad')}
            testId="crash-salt-check"
          />
        </>
      )}
    </li>
  );
}

/** Crash's public commitments: the same chains on every site, for guests too. */
function CrashChains() {
  const { t } = useTranslation();
  const chains = useCrashChains();
  return (
    <section className="card fair-card" data-testid="crash-chains">
      <h2 className="card__title">{t('lobby.fair.crash_title')}</h2>
      <p className="fair-label">{t('lobby.fair.crash_intro')}</p>
      {chains.isPending ? (
        <Spinner />
      ) : chains.isError || !chains.data ? (
        <LoadFail onRetry={() => void chains.refetch()} />
      ) : chains.data.list.length === 0 ? (
        <p className="fair-label">{t('lobby.fair.crash_none')}</p>
      ) : (
        <ul className="fair-history">
          {chains.data.list.map((chain) => (
            <CrashChainItem key={chain.id} chain={chain} />
          ))}
        </ul>
      )}
    </section>
  );
}

/**
 * `/fairness`: the seed pair in use (with the next seed's commitment), client seed, rotation,
 * revealed seeds and the round verifier for a logged-in player; the crash chains for everyone.
 */
export default function FairnessPage() {
  const { t } = useTranslation();
  const hasToken = useHasToken();
  return (
    <PageFrame title={t('lobby.fair.title')}>
      <div className="fairness">
        <p className="fair-intro">{t('lobby.fair.intro')}</p>
        {hasToken ? (
          <>
            <CurrentSeeds />
            <Verifier />
          </>
        ) : (
          <GuestNotice />
        )}
        <CrashChains />
      </div>
    </PageFrame>
  );
}
