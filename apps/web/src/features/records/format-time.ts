import { LANGUAGE_TAGS } from '@sorte/contract';
import { currentLanguage } from '../../lib/i18n.ts';

/** A record's ISO time in the reader's language, date and time to the minute. */
export function formatTime(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return new Intl.DateTimeFormat(LANGUAGE_TAGS[currentLanguage()], {
    dateStyle: 'short',
    timeStyle: 'short',
  }).format(date);
}
