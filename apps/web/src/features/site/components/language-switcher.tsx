import {
  LANGUAGE_NAMES,
  LANGUAGE_TAGS,
  LANGUAGES,
  normalizeLanguage,
  type TLanguageEntry,
} from '@sorte/contract';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Icon } from '../../../components/icon.tsx';
import { changeLanguage, currentLanguage } from '../../../lib/i18n.ts';
import { usePopover } from '../../../lib/popover.ts';
import { useLanguageList } from '../../../lib/site.ts';

/** When the list cannot load (ignored silently, spec §8) the eight languages are still offered, without flags. */
const FALLBACK: TLanguageEntry[] = LANGUAGES.map((code) => ({
  language_code: code,
  language_name: LANGUAGE_NAMES[code],
  language_flag_link: '',
}));

function Flag({ entry }: { entry: TLanguageEntry | undefined }) {
  const [broken, setBroken] = useState(false);
  if (!entry?.language_flag_link || broken) return <Icon name="globe" size={20} />;
  return (
    <img
      className="flag"
      src={entry.language_flag_link}
      alt=""
      width={22}
      height={16}
      onError={() => setBroken(true)}
    />
  );
}

export function LanguageSwitcher() {
  const { t } = useTranslation();
  const { data } = useLanguageList();
  const { open, setOpen, root } = usePopover();
  const listId = useId();
  const entries = data && data.length > 0 ? data : FALLBACK;
  const active = currentLanguage();
  const activeEntry = entries.find((entry) => entry.language_code === active);

  return (
    <div className="menu" ref={root}>
      <button
        type="button"
        className="icon-button language-button"
        data-testid="language-switcher"
        aria-haspopup="true"
        aria-expanded={open}
        aria-controls={listId}
        aria-label={t('header.language', { language: LANGUAGE_NAMES[active] })}
        onClick={() => setOpen((value) => !value)}
      >
        <Flag entry={activeEntry} />
      </button>
      {open && (
        <ul
          className="menu__popover menu__popover--languages"
          id={listId}
          aria-label={t('header.choose_language')}
        >
          {entries.map((entry) => {
            const selected = entry.language_code === active;
            return (
              <li key={entry.language_code}>
                <button
                  type="button"
                  className={`menu__item${selected ? ' is-active' : ''}`}
                  data-testid={`lang-option-${entry.language_code}`}
                  aria-current={selected ? 'true' : undefined}
                  lang={LANGUAGE_TAGS[normalizeLanguage(entry.language_code) ?? 'en']}
                  onClick={() => {
                    setOpen(false);
                    if (!selected) changeLanguage(entry.language_code);
                  }}
                >
                  <Flag entry={entry} />
                  <span>{entry.language_name}</span>
                  {selected && <Icon name="check" size={16} className="menu__check" />}
                </button>
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}
