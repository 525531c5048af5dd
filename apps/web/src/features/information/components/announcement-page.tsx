import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../../components/empty-state.tsx';
import { LoadFail } from '../../../components/load-fail.tsx';
import { PageFrame } from '../../../components/page-frame.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import { formatDateTime } from '../../../lib/format.ts';
import { useAnnouncements } from '../api/information.ts';
import './information.css';

/** `/announcement`: the site's announcements in the reader's language. */
export default function AnnouncementPage() {
  const { t } = useTranslation();
  const list = useAnnouncements();
  return (
    <PageFrame title={t('pages.announcement')}>
      {list.isPending ? (
        <Spinner />
      ) : list.isError ? (
        <LoadFail onRetry={() => void list.refetch()} />
      ) : list.data.data.length === 0 ? (
        <EmptyState message={t('empty.announcements')} icon="bell" />
      ) : (
        <ul className="info-list">
          {list.data.data.map((item) => (
            <li key={item.id} className="info-item" data-testid="announcement">
              <h2 className="info-item__title">{item.title}</h2>
              <p className="info-item__body">{item.body}</p>
              <time className="info-item__time" dateTime={item.published_at}>
                {formatDateTime(item.published_at)}
              </time>
            </li>
          ))}
        </ul>
      )}
    </PageFrame>
  );
}
