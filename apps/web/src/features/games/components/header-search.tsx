import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Icon } from '../../../components/icon.tsx';

// The panel (its query, results and styles) loads on the first tap: the header itself stays light.
const SearchPanel = lazy(() => import('./search-panel.tsx'));

/** The search button of the header, on every screen size; it opens search with instant results. */
export function HeaderSearch() {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <>
      <button
        type="button"
        className="icon-button header__search"
        data-testid="header-search"
        aria-label={t('lobby.search_placeholder')}
        aria-haspopup="dialog"
        aria-expanded={open}
        onClick={() => setOpen(true)}
      >
        <Icon name="search" size={20} />
      </button>
      {open && (
        <Suspense fallback={null}>
          <SearchPanel onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </>
  );
}
