import { formatMinor, type TAmlCaseDetail } from '@sorte/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, api, downloadFile, session } from '../api.ts';
import { formatDateTime, formatMoney } from '../i18n.ts';
import { can } from '../providers.ts';

/** Minor units (the compliance API's amounts) as money. */
export const minorMoney = (minor: string | null) =>
  minor === null ? '—' : formatMoney(formatMinor(BigInt(minor)));

type TNotice = { tone: 'ok' | 'error'; text: string } | null;

type TCaseAct = {
  mutate: (action: { path: string; body: unknown }, options?: { onSuccess?: () => void }) => void;
  isPending: boolean;
};

/** The case's actions: assign to me or nobody, a note, hold, decide (close | report to COAF). */
function CaseActions({ detail, onDone }: { detail: TAmlCaseDetail; onDone: (notice: TNotice) => void }) {
  const id = detail.case.id;
  const act = useMutation({
    mutationFn: async (action: { path: string; body: unknown }) =>
      api(`/admin/compliance/cases/${id}/${action.path}`, { body: action.body }),
    onSuccess: ({ message }) => onDone({ tone: 'ok', text: message }),
    onError: (error) =>
      onDone({ tone: 'error', text: error instanceof ApiError ? error.message : String(error) }),
  });
  const open = detail.case.status === 'open';
  return (
    <div className="decision">
      <CaseButtons detail={detail} act={act} />
      <NoteForm act={act} />
      {open && <DecisionForm act={act} />}
    </div>
  );
}

/** Assign the open case to me or to nobody, and hold the player's withdrawals. */
function CaseButtons({ detail, act }: { detail: TAmlCaseDetail; act: TCaseAct }) {
  const { t } = useTranslation();
  const me = session.operator();
  const open = detail.case.status === 'open';
  return (
    <div className="decision__actions">
      {me && open && (
        <button
          type="button"
          className="button button--ghost"
          disabled={act.isPending}
          onClick={() => act.mutate({ path: 'assign', body: { operator_id: me.id } })}
          data-testid="case-assign-me"
        >
          {t('compliance.assign_me')}
        </button>
      )}
      {open && detail.case.assigned_to && (
        <button
          type="button"
          className="button button--ghost"
          disabled={act.isPending}
          onClick={() => act.mutate({ path: 'assign', body: { operator_id: null } })}
        >
          {t('compliance.unassign')}
        </button>
      )}
      {open && !detail.case.held && (
        <button
          type="button"
          className="button button--danger"
          disabled={act.isPending}
          onClick={() => act.mutate({ path: 'hold', body: {} })}
          data-testid="case-hold"
        >
          {t('compliance.hold')}
        </button>
      )}
    </div>
  );
}

function NoteForm({ act }: { act: TCaseAct }) {
  const { t } = useTranslation();
  const [note, setNote] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    act.mutate({ path: 'notes', body: { note } }, { onSuccess: () => setNote('') });
  };
  return (
    <form onSubmit={submit}>
      <label className="field">
        <span className="field__label">{t('compliance.note')}</span>
        <textarea
          value={note}
          onChange={(event) => setNote(event.target.value)}
          maxLength={4000}
          rows={2}
          data-testid="case-note"
        />
      </label>
      <button type="submit" className="button button--ghost" disabled={act.isPending}>
        {t('compliance.add_note')}
      </button>
    </form>
  );
}

/** Close the case with a reason, or report it to COAF with a narrative. */
function DecisionForm({ act }: { act: TCaseAct }) {
  const { t } = useTranslation();
  const [reason, setReason] = useState('');
  const [decision, setDecision] = useState<'close' | 'report'>('close');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    act.mutate({ path: 'decide', body: { decision, reason } }, { onSuccess: () => setReason('') });
  };
  const reporting = decision === 'report';
  return (
    <form onSubmit={submit}>
      <label className="field">
        <span className="field__label">{t('compliance.decision')}</span>
        <select
          value={decision}
          onChange={(event) => setDecision(event.target.value as 'close' | 'report')}
          data-testid="case-decision"
        >
          <option value="close">{t('compliance.decide.close')}</option>
          <option value="report">{t('compliance.decide.report')}</option>
        </select>
      </label>
      <label className="field">
        <span className="field__label">{reporting ? t('compliance.narrative') : t('compliance.reason')}</span>
        <textarea
          value={reason}
          onChange={(event) => setReason(event.target.value)}
          maxLength={2000}
          rows={3}
          aria-required="true"
          data-testid="case-reason"
        />
      </label>
      <button
        type="submit"
        className={`button ${reporting ? 'button--danger' : 'button--primary'}`}
        disabled={act.isPending}
        data-testid="case-decide"
      >
        {reporting ? t('compliance.decide.report') : t('compliance.decide.close')}
      </button>
    </form>
  );
}

function Facts({ detail }: { detail: TAmlCaseDetail }) {
  const { t } = useTranslation();
  const { player, bets } = detail;
  return (
    <dl className="facts">
      <dt>{t('compliance.col.player')}</dt>
      <dd>
        {player.username} · {player.realname}
        {player.pep && <span className="badge badge--warn">{t('compliance.pep')}</span>}
      </dd>
      <dt>CPF</dt>
      <dd>{player.cpf ?? '—'}</dd>
      <dt>{t('compliance.birth_date')}</dt>
      <dd>{player.birth_date ?? '—'}</dd>
      <dt>{t('compliance.col.status')}</dt>
      <dd>
        {t(`compliance.status.${detail.case.status}`)}
        {detail.case.held && <span className="badge badge--bad">{t('compliance.held')}</span>}
      </dd>
      <dt>{t('compliance.col.assigned')}</dt>
      <dd>{detail.case.assigned_to ?? '—'}</dd>
      <dt>{t('compliance.bets')}</dt>
      <dd>
        {t('compliance.bets_summary', {
          count: bets.count,
          staked: minorMoney(bets.staked_minor),
          won: minorMoney(bets.won_minor),
        })}
      </dd>
      {detail.case.decision_reason && (
        <>
          <dt>{t('compliance.reason')}</dt>
          <dd>{detail.case.decision_reason}</dd>
        </>
      )}
    </dl>
  );
}

function Rows({ head, rows }: { head: string[]; rows: (string | number)[][] }) {
  return (
    <table className="table">
      <thead>
        <tr>
          {head.map((cell) => (
            <th key={cell} scope="col">
              {cell}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: rows of a read-only record have no id of their own.
          <tr key={i}>
            {row.map((cell, j) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: the cells of a row are positional.
              <td key={j}>{cell}</td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** What the case holds: alerts with their legal basis, the timeline, devices, KYC checks, notes. */
function CaseRecord({ data }: { data: TAmlCaseDetail }) {
  const { t } = useTranslation();
  return (
    <>
      <h3>{t('compliance.alerts')}</h3>
      <Rows
        head={[
          t('compliance.col.rule'),
          t('compliance.col.amount'),
          t('compliance.col.when'),
          t('compliance.col.basis'),
          t('compliance.col.evidence'),
        ]}
        rows={data.alerts.map((a) => [
          t(`compliance.rule.${a.rule}`),
          minorMoney(a.amount_minor),
          formatDateTime(a.event_at),
          a.legal_basis,
          JSON.stringify(a.evidence),
        ])}
      />
      <h3>{t('compliance.timeline')}</h3>
      <Rows
        head={[
          t('compliance.col.when'),
          t('compliance.col.kind'),
          t('compliance.col.amount'),
          t('compliance.col.detail'),
        ]}
        rows={data.timeline.map((e) => [
          formatDateTime(e.at),
          t(`compliance.event.${e.kind}`),
          minorMoney(e.amount_minor),
          e.detail,
        ])}
      />
      <h3>{t('compliance.devices')}</h3>
      <Rows
        head={[
          t('compliance.col.kind'),
          t('compliance.col.value'),
          t('compliance.col.when'),
          t('compliance.col.others'),
        ]}
        rows={data.devices.map((d) => [
          d.kind,
          d.kind === 'device' ? d.value.slice(0, 16) : d.value,
          formatDateTime(d.last_seen),
          d.other_accounts,
        ])}
      />
      <h3>{t('compliance.kyc')}</h3>
      <Rows
        head={[t('compliance.col.kind'), t('compliance.col.outcome'), t('compliance.col.when')]}
        rows={data.kyc.map((k) => [
          k.check,
          `${k.outcome}${k.reason ? ` · ${k.reason}` : ''}`,
          formatDateTime(k.at),
        ])}
      />
      <h3>{t('compliance.notes')}</h3>
      <ul className="history">
        {data.notes.map((n) => (
          <li key={n.id}>
            <strong>{n.operator}</strong> <span className="muted">{formatDateTime(n.created_at)}</span>{' '}
            {n.note}
          </li>
        ))}
      </ul>
    </>
  );
}

/** One case: the player, the alerts with their legal basis, the timeline, devices, KYC, notes, files, actions. */
export function CasePanel({ caseId }: { caseId: number }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [notice, setNotice] = useState<TNotice>(null);
  const detail = useQuery({
    queryKey: ['compliance-case', caseId],
    queryFn: async () => (await api<TAmlCaseDetail>(`/admin/compliance/cases/${caseId}`)).data,
  });
  const done = async (next: TNotice) => {
    setNotice(next);
    await queryClient.invalidateQueries({ queryKey: ['compliance-case', caseId] });
    await queryClient.invalidateQueries({ queryKey: ['compliance-cases'] });
    await queryClient.invalidateQueries({ queryKey: ['compliance-reports'] });
  };
  const data = detail.data;
  return (
    <section
      className="card panel"
      aria-label={t('compliance.case_title', { id: caseId })}
      data-testid="case-panel"
    >
      <header className="panel__header">
        <h2>{t('compliance.case_title', { id: caseId })}</h2>
      </header>
      {detail.isError && <p className="alert alert--error">{(detail.error as Error).message}</p>}
      {notice && (
        <p
          className={notice.tone === 'error' ? 'alert alert--error' : 'alert'}
          role={notice.tone === 'error' ? 'alert' : 'status'}
        >
          {notice.text}
        </p>
      )}
      {data && (
        <>
          <Facts detail={data} />
          {can('compliance.manage') && <CaseActions detail={data} onDone={done} />}
          <CaseRecord data={data} />
          {data.reports.map((r) => (
            <button
              key={r.id}
              type="button"
              className="button button--ghost"
              onClick={() =>
                downloadFile(`/admin/compliance/reports/${r.id}/file`, r.file_name).catch((error: Error) =>
                  setNotice({ tone: 'error', text: error.message }),
                )
              }
              data-testid="case-download-coaf"
            >
              {t('compliance.download_coaf')}
            </button>
          ))}
        </>
      )}
    </section>
  );
}
