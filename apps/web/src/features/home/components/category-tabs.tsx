import { type ReactNode, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../../components/empty-state.tsx';
import { TilesSkeleton } from '../../../components/tiles-skeleton.tsx';

/** Known category codes have translated names; an unknown one shows its code, capitalised. */
export function categoryLabel(
  code: string,
  translate: (key: string, options: { defaultValue: string }) => string,
) {
  const fallback = code.charAt(0).toUpperCase() + code.slice(1).replace(/[_-]+/g, ' ');
  return translate(`categories.${code.toLowerCase()}`, { defaultValue: fallback });
}

export function CategoryTabs({
  categories,
  loading = false,
  renderPanel,
}: {
  categories: string[];
  /** The site's categories are still on their way: tiles' shapes, not "no games". */
  loading?: boolean;
  renderPanel: (category: string) => ReactNode;
}) {
  const { t } = useTranslation();
  const [active, setActive] = useState(0);
  const baseId = useId();
  if (loading && categories.length === 0) return <TilesSkeleton label={t('common.loading')} />;
  if (categories.length === 0) return <EmptyState message={t('empty.games')} icon="game" />;
  const current = Math.min(active, categories.length - 1);
  return (
    <section className="categories" aria-label={t('home.categories')}>
      <div className="tabs tabs--scroll" role="tablist" aria-label={t('home.categories')}>
        {categories.map((code, index) => (
          <button
            key={code}
            id={`${baseId}-tab-${index}`}
            type="button"
            role="tab"
            aria-selected={index === current}
            aria-controls={`${baseId}-panel`}
            className={`tabs__tab${index === current ? ' is-active' : ''}`}
            onClick={() => setActive(index)}
          >
            {categoryLabel(code, t)}
          </button>
        ))}
      </div>
      <div id={`${baseId}-panel`} role="tabpanel" aria-labelledby={`${baseId}-tab-${current}`}>
        {renderPanel(categories[current] ?? '')}
      </div>
    </section>
  );
}
