import type { TAdminKycReview, TAdminKycReviewsResponse } from '@sorte/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, api, fetchBlob } from '../api.ts';
import { formatDateTime } from '../i18n.ts';
import { can } from '../providers.ts';
import './reports.css';
import { DecisionActions } from '../components/decision-actions.tsx';

type TDocument = TAdminKycReview['documents'][number];

/**
 * One document, fetched with the operator's token into a blob URL (never a public link): an image
 * inline, a PDF as a link that opens it. Each opening is in the audit log (the server writes it).
 */
function DocumentView({ document }: { document: TDocument }) {
  const { t } = useTranslation();
  const [url, setUrl] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let revoked = false;
    let made: string | null = null;
    fetchBlob(`/admin/kyc/documents/${document.id}`).then(
      (blob) => {
        if (revoked) return;
        made = URL.createObjectURL(blob);
        setUrl(made);
      },
      (failure: unknown) => setError(failure instanceof Error ? failure.message : String(failure)),
    );
    return () => {
      revoked = true;
      if (made) URL.revokeObjectURL(made);
    };
  }, [document.id]);
  const label = t(`kyc_reviews.kind.${document.kind}`);
  if (error) return <p className="alert alert--error">{error}</p>;
  if (!url) return <p className="muted">{t('common.loading')}</p>;
  return (
    <figure className="kyc-document" data-testid={`kyc-document-${document.kind}`}>
      {document.content_type === 'application/pdf' ? (
        <a href={url} target="_blank" rel="noreferrer">
          {label} (PDF)
        </a>
      ) : (
        <img src={url} alt={label} />
      )}
      <figcaption className="muted">{label}</figcaption>
    </figure>
  );
}

/** Approve or reject with a reason (both need one; it goes into the audit log). */
function Decision({ review }: { review: TAdminKycReview }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [reason, setReason] = useState('');
  const [notice, setNotice] = useState<string | null>(null);
  const decide = useMutation({
    mutationFn: (decision: 'approve' | 'reject') =>
      api(`/admin/kyc/reviews/${review.session_id}/decision`, { body: { decision, reason } }),
    onSuccess: async () => {
      await client.invalidateQueries({ queryKey: ['kyc-reviews'] });
    },
    onError: (error) => setNotice(error instanceof ApiError ? error.message : String(error)),
  });
  const submit = (decision: 'approve' | 'reject') => (event?: FormEvent) => {
    event?.preventDefault();
    setNotice(null);
    decide.mutate(decision);
  };
  return (
    <form className="decision kyc-decision" onSubmit={submit('approve')}>
      <label className="field">
        <span className="field__label">{t('kyc_reviews.reason')}</span>
        <textarea
          value={reason}
          maxLength={300}
          rows={2}
          aria-required="true"
          onChange={(event) => setReason(event.target.value)}
          data-testid="kyc-reason"
        />
      </label>
      <DecisionActions
        approve={t('kyc_reviews.approve')}
        reject={t('kyc_reviews.reject')}
        pending={decide.isPending}
        onReject={() => submit('reject')()}
        testIdPrefix="kyc"
      />
      <p className="muted">{t('kyc_reviews.reject_hint')}</p>
      {notice && <p className="alert alert--error">{notice}</p>}
    </form>
  );
}

function ReviewCard({ review }: { review: TAdminKycReview }) {
  const { t } = useTranslation();
  const documents = can('kyc.documents');
  return (
    <section className="card section" data-testid="kyc-review" data-member={review.member_id}>
      <h2>
        {review.username} <span className="muted">· {review.realname}</span>
        {review.pep && <span className="badge badge--bad"> {t('kyc_reviews.pep')}</span>}
      </h2>
      <p className="muted">
        {t('kyc_reviews.cpf')}: {review.cpf ?? '—'} · {t('kyc_reviews.birth_date')}:{' '}
        {review.birth_date ?? '—'} ·{' '}
        {t('kyc_reviews.requested', {
          at: review.review_requested_at ? formatDateTime(review.review_requested_at) : '—',
        })}
      </p>
      {review.documents_error && (
        <p className="alert alert--error">{t(`kyc_reviews.error.${review.documents_error}`)}</p>
      )}
      {documents ? (
        <div className="kyc-documents">
          {review.documents.map((document) => (
            <DocumentView key={document.id} document={document} />
          ))}
        </div>
      ) : (
        <p className="muted">{t('kyc_reviews.documents_hidden', { count: review.documents.length })}</p>
      )}
      {documents && <Decision review={review} />}
    </section>
  );
}

/** The verification queue: the sessions the KYC provider sent to the operator's manual review. */
export default function KycReviewsPage() {
  const { t } = useTranslation();
  const reviews = useQuery({
    queryKey: ['kyc-reviews'],
    queryFn: async () => (await api<TAdminKycReviewsResponse>('/admin/kyc/reviews')).data,
  });
  return (
    <div className="page">
      <h1>{t('kyc_reviews.title')}</h1>
      <p className="muted">{t('kyc_reviews.subtitle')}</p>
      {!can('players.pii') && <p className="alert">{t('players.pii_masked')}</p>}
      {reviews.error && <p className="alert alert--error">{reviews.error.message}</p>}
      {reviews.data?.list.length === 0 && <p className="muted">{t('kyc_reviews.empty')}</p>}
      {reviews.data?.list.map((review) => (
        <ReviewCard key={review.session_id} review={review} />
      ))}
    </div>
  );
}
