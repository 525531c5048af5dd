import { MESSAGES } from '@sorte/contract';
import i18next from 'i18next';
import { addTranslations, currentLanguage } from './i18n.ts';

/**
 * The contract's schema messages are i18n keys (`validation.required.username`). Forms import this
 * module, which adds the contract catalogue of the active language to i18next, so a mistake caught in
 * the browser reads exactly like the same mistake caught by the server. It lives outside the
 * initial bundle: only form chunks import it.
 */
export function loadValidationMessages(): void {
  if (!i18next.isInitialized) {
    i18next.on('initialized', loadValidationMessages);
    return;
  }
  const language = currentLanguage();
  addTranslations(language, MESSAGES[language]);
}

loadValidationMessages();
