import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

export default function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <section className="not-found">
      <p className="not-found__code" aria-hidden="true">
        404
      </p>
      <h1>{t('not_found.title')}</h1>
      <p>{t('not_found.text')}</p>
      <Link to="/" className="button button--primary">
        {t('not_found.home')}
      </Link>
    </section>
  );
}
