import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DataTable } from '../components/data-table.tsx';
import { formatDateTime } from '../i18n.ts';
import './reports.css';

type TChainRow = {
  id: number;
  terminating_hash: string;
  public_salt: string | null;
  salt_fixed_at: string | null;
  length: number;
  position: number;
  created_at: string;
  first_round_at: string | null;
  last_round_at: string | null;
};
type TRoundRow = {
  id: number;
  position: number;
  state: string;
  hash_commitment: string;
  round_hash: string | null;
  crash_point: string | null;
  created_at: string;
  bets: number;
};

/** Crash hash chains as committed (never the secret seed), and a chain's rounds. */
export default function CrashChainsPage() {
  const { t } = useTranslation();
  const [chain, setChain] = useState<number | null>(null);
  return (
    <div className="page">
      <header className="page__header">
        <h1>{t('crash.title')}</h1>
        <p className="muted">{t('crash.subtitle')}</p>
      </header>
      <DataTable<TChainRow>
        resource="crash-chains"
        path="/admin/crash/chains"
        csvName="crash-chains"
        rowKey={(row) => String(row.id)}
        selectedKey={chain === null ? null : String(chain)}
        onRowClick={(row) => setChain(row.id)}
        pageSize={10}
        columns={[
          { key: 'id', header: '#' },
          {
            key: 'terminating_hash',
            header: t('crash.col.terminating_hash'),
            render: (row) => <span className="hash">{row.terminating_hash}</span>,
          },
          {
            key: 'public_salt',
            header: t('crash.col.salt'),
            render: (row) =>
              row.public_salt ? (
                <span className="hash">{row.public_salt}</span>
              ) : (
                <span className="badge badge--info">{t('crash.salt_pending')}</span>
              ),
          },
          {
            key: 'position',
            header: t('crash.col.played'),
            align: 'right',
            render: (row) => `${row.position} / ${row.length}`,
          },
          {
            key: 'created_at',
            header: t('crash.col.created'),
            render: (row) => formatDateTime(row.created_at),
          },
          {
            key: 'last_round_at',
            header: t('crash.col.last_round'),
            render: (row) => formatDateTime(row.last_round_at),
          },
        ]}
      />
      {chain !== null && (
        <section style={{ marginTop: 16 }} data-testid="chain-rounds">
          <h2>{t('crash.rounds', { id: chain })}</h2>
          <p className="muted">{t('crash.rounds_hint')}</p>
          <DataTable<TRoundRow>
            key={chain}
            resource={`crash-chain-${chain}-rounds`}
            path={`/admin/crash/chains/${chain}/rounds`}
            csvName={`crash-chain-${chain}-rounds`}
            rowKey={(row) => String(row.id)}
            columns={[
              { key: 'position', header: t('crash.col.position'), align: 'right' },
              { key: 'state', header: t('crash.col.state') },
              {
                key: 'crash_point',
                header: t('crash.col.crash_point'),
                align: 'right',
                render: (row) => (row.crash_point ? `${row.crash_point}×` : '—'),
              },
              {
                key: 'hash_commitment',
                header: t('crash.col.commitment'),
                render: (row) => <span className="hash">{row.hash_commitment}</span>,
              },
              {
                key: 'round_hash',
                header: t('crash.col.round_hash'),
                render: (row) => <span className="hash">{row.round_hash ?? '—'}</span>,
              },
              { key: 'bets', header: t('crash.col.bets'), align: 'right' },
              {
                key: 'created_at',
                header: t('crash.col.created'),
                render: (row) => formatDateTime(row.created_at),
              },
            ]}
          />
        </section>
      )}
    </div>
  );
}
