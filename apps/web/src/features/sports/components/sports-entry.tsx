import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Icon } from '../../../components/icon.tsx';
import '../sports-entry.css';

/**
 * The way into the sportsbook from the home's "sports" category: the real football book first,
 * the category's virtual-sports games below it.
 */
export function SportsEntry() {
  const { t } = useTranslation();
  return (
    <Link to="/sports" className="sports-entry" data-testid="sports-entry">
      <span className="sports-entry__icon">
        <Icon name="ball" size={28} />
      </span>
      <span className="sports-entry__text">
        <strong>{t('sports.title')}</strong>
        <small>{t('sports.entry_text')}</small>
      </span>
      <Icon name="chevron" size={20} />
    </Link>
  );
}
