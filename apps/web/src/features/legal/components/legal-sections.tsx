import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { useSiteData } from '../../../lib/site.ts';

/**
 * The footer's legal links land here (#terms, #privacy, #responsible-gaming, #faq). A site's
 * jurisdiction profile may word a paragraph its own way (`legal.profiles.<jurisdiction>.<key>`, e.g.
 * the CPF, PIX and self-exclusion rules of br); the others read the common text.
 */
const SECTIONS = [
  { id: 'terms', titleKey: 'footer.terms', paragraphs: ['legal.terms_1', 'legal.terms_2', 'legal.terms_3'] },
  { id: 'privacy', titleKey: 'footer.privacy', paragraphs: ['legal.privacy_1', 'legal.privacy_2'] },
  {
    id: 'responsible-gaming',
    titleKey: 'footer.responsible_gaming',
    paragraphs: ['legal.rg_1', 'legal.rg_2', 'legal.rg_3'],
  },
] as const;

const FAQ = [
  ['legal.faq_q1', 'legal.faq_a1'],
  ['legal.faq_q2', 'legal.faq_a2'],
  ['legal.faq_q3', 'legal.faq_a3'],
] as const;

export function LegalSections() {
  const { t, i18n } = useTranslation();
  const { hash } = useLocation();
  const jurisdiction = useSiteData().data?.jurisdiction;
  const text = (key: string) => {
    const own = jurisdiction ? `legal.profiles.${jurisdiction}.${key.replace(/^legal\./, '')}` : null;
    return t(own && i18n.exists(own) ? own : key);
  };
  const open = hash.replace(/^#/, '');

  useEffect(() => {
    if (open) document.getElementById(open)?.scrollIntoView?.({ block: 'start' });
  }, [open]);

  return (
    <section className="legal" aria-label={t('legal.title')}>
      {SECTIONS.map((section) => (
        <details key={section.id} id={section.id} className="legal__item card" open={open === section.id}>
          <summary>{t(section.titleKey)}</summary>
          {section.paragraphs.map((key) => (
            <p key={key}>{text(key)}</p>
          ))}
        </details>
      ))}
      <details id="faq" className="legal__item card" open={open === 'faq'}>
        <summary>{t('footer.faq')}</summary>
        <dl className="legal__faq">
          {FAQ.map(([question, answer]) => (
            <div key={question}>
              <dt>{text(question)}</dt>
              <dd>{text(answer)}</dd>
            </div>
          ))}
        </dl>
      </details>
    </section>
  );
}
