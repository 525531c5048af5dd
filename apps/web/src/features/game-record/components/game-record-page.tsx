import type { TRecordPeriod } from '@sorte/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../../components/empty-state.tsx';
import { LoadFail } from '../../../components/load-fail.tsx';
import { Modal } from '../../../components/modal.tsx';
import { PageFrame } from '../../../components/page-frame.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import { formatDateTime, formatMoney, formatSignedMoney } from '../../../lib/format.ts';
import { type TRecordCursor, useGameRecord, useRound } from '../api/game-record-api.ts';
import { recordLabels } from '../record-labels.ts';
import { RoundDetails } from './round-details.tsx';
import '../game-record.css';
import { RecordPeriodFilter } from '../../../components/period-filter.tsx';

function RoundModal({ id, onClose }: { id: string; onClose: () => void }) {
  const { t } = useTranslation();
  const round = useRound(id);
  return (
    <Modal title={t('lobby.record.details')} onClose={onClose}>
      {round.isPending ? (
        <Spinner />
      ) : round.isError ? (
        <p role="alert">{t('lobby.load_fail')}</p>
      ) : (
        <RoundDetails round={round.data} />
      )}
    </Modal>
  );
}

/** A win shows its sign: "+R$ 2,00" reads as money won, "R$ 2,00" beside a stake does not. */
export function signedMoney(value: string): string {
  return formatSignedMoney(value);
}

function resultClass(value: string): string {
  if (!/^-?\d{1,13}\.\d{2}$/.test(value) || /^-?0\.00$/.test(value)) return '';
  return value.startsWith('-') ? 'is-loss' : 'is-win';
}

function GameRecords() {
  const { t } = useTranslation();
  const [period, setPeriod] = useState<TRecordPeriod>('today');
  const [cursor, setCursor] = useState<TRecordCursor>({});
  const [open, setOpen] = useState<string | null>(null);
  const records = useGameRecord(period, cursor);
  const list = records.data?.list ?? [];
  // The pager sits under the list: the next page starts at its first round, not its last.
  const turn = (next: TRecordCursor) => {
    setCursor(next);
    window.scrollTo(0, 0);
  };
  const choose = (next: TRecordPeriod) => {
    setPeriod(next);
    setCursor({});
  };
  return (
    <div className="game-record">
      <RecordPeriodFilter value={period} onChange={choose} />
      <div className="game-record__summary">
        <p className="game-record__totals">
          {records.data &&
            t('lobby.record.totals', {
              rounds: records.data.totals.count,
              bet: formatMoney(records.data.totals.bet_amount),
              result: formatMoney(records.data.totals.win_loss),
            })}
        </p>
      </div>
      {records.isPending ? (
        <Spinner />
      ) : records.isError ? (
        <LoadFail onRetry={() => void records.refetch()} />
      ) : list.length === 0 ? (
        <EmptyState message={t('empty.records')} icon="list" />
      ) : (
        <ul className="game-record__list">
          {list.map((row) => (
            <li key={row.id}>
              <button
                type="button"
                className="game-record__row"
                data-testid="game-record-row"
                data-round-id={row.id}
                onClick={() => setOpen(row.id)}
              >
                <span className="game-record__name">
                  <strong>{recordLabels(row, t).name}</strong>
                  <small>{recordLabels(row, t).brand}</small>
                </span>
                <span className="game-record__time">{formatDateTime(row.bet_time)}</span>
                <span className="game-record__amount">
                  <small>{t('lobby.record.bet_amount')}</small> {formatMoney(row.bet_amount)}
                </span>
                <span className="game-record__result">
                  <small>{t('lobby.record.win_loss')}</small>{' '}
                  {row.status === 'active' ? (
                    // A round still open (Mines, Hi-Lo) has lost nothing yet: its stake is only held.
                    <strong className="is-pending">{t('lobby.record.in_progress')}</strong>
                  ) : (
                    <strong className={resultClass(row.win_loss)}>{signedMoney(row.win_loss)}</strong>
                  )}
                </span>
              </button>
            </li>
          ))}
        </ul>
      )}
      {(records.data?.prev_after_id || records.data?.next_before_id) && (
        <nav className="lobby-pager" aria-label={t('lobby.paging')}>
          <button
            type="button"
            className="button button--ghost button--small"
            disabled={!records.data?.prev_after_id || records.isFetching}
            onClick={() => turn({ after_id: records.data?.prev_after_id ?? undefined })}
          >
            {t('lobby.previous')}
          </button>
          <button
            type="button"
            className="button button--ghost button--small"
            disabled={!records.data?.next_before_id || records.isFetching}
            onClick={() => turn({ before_id: records.data?.next_before_id ?? undefined })}
          >
            {t('lobby.next')}
          </button>
        </nav>
      )}
      {open && <RoundModal id={open} onClose={() => setOpen(null)} />}
    </div>
  );
}

/** `/game-record`: the player's rounds (brand, game, bet time, bet amount, win/loss) and their details. */
export default function GameRecordPage() {
  const { t } = useTranslation();
  return (
    <PageFrame title={t('lobby.record.title')} requiresLogin>
      <GameRecords />
    </PageFrame>
  );
}
