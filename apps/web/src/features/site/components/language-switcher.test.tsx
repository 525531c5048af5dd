import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { describe, expect, it, vi } from 'vitest';
import { adoptSiteLanguage, initI18n, pageReload, resolveInitialLanguage } from '../../../lib/i18n.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { mockApi, ok } from '../../../test/api-mock.ts';
import { LanguageSwitcher } from './language-switcher.tsx';

const LIST = [
  { language_code: 'en', language_name: 'English', language_flag_link: '/media/flags/en.svg' },
  { language_code: 'pt', language_name: 'Português', language_flag_link: '/media/flags/pt.svg' },
  { language_code: 'th', language_name: 'ไทย', language_flag_link: '/media/flags/th.svg' },
];

describe('language switcher', () => {
  it('offers the site languages with flags, stores the choice and reloads the page', async () => {
    const { calls } = mockApi({ 'GET /api/language/getList': () => ({ body: ok(LIST) }) });
    const reload = vi.spyOn(pageReload, 'run').mockImplementation(() => {});
    render(
      <QueryClientProvider client={queryClient}>
        <LanguageSwitcher />
      </QueryClientProvider>,
    );
    await userEvent.click(screen.getByTestId('language-switcher'));
    const option = await screen.findByTestId('lang-option-pt');
    expect(option.textContent).toContain('Português');
    expect(option.querySelector('img')?.getAttribute('src')).toBe('/media/flags/pt.svg');
    expect(calls[0]?.url.searchParams.get('domain')).toBe('localhost');

    await userEvent.click(option);
    expect(localStorage.getItem('lang')).toBe('pt');
    expect(reload).toHaveBeenCalledTimes(1);
    expect(resolveInitialLanguage()).toBe('pt');
  });

  it('does not reload when the active language is chosen again', async () => {
    mockApi({ 'GET /api/language/getList': () => ({ body: ok(LIST) }) });
    const reload = vi.spyOn(pageReload, 'run').mockImplementation(() => {});
    render(
      <QueryClientProvider client={queryClient}>
        <LanguageSwitcher />
      </QueryClientProvider>,
    );
    await userEvent.click(screen.getByTestId('language-switcher'));
    await userEvent.click(await screen.findByTestId('lang-option-en'));
    expect(reload).not.toHaveBeenCalled();
  });

  it('still offers all eight languages when the list cannot load', async () => {
    mockApi({});
    render(
      <QueryClientProvider client={queryClient}>
        <LanguageSwitcher />
      </QueryClientProvider>,
    );
    await userEvent.click(screen.getByTestId('language-switcher'));
    for (const code of ['en', 'pt', 'cn', 'ch', 'vi', 'id', 'th', 'msa']) {
      expect(screen.getByTestId(`lang-option-${code}`)).toBeTruthy();
    }
  });
});

describe('language persistence', () => {
  it('starts in the stored language and sets <html lang> to its BCP 47 tag', async () => {
    localStorage.setItem('lang', 'ch');
    await initI18n();
    expect(i18next.language).toBe('ch');
    expect(document.documentElement.lang).toBe('zh-Hant');
    expect(i18next.t('nav.home')).toBe('首頁');
  });

  it('accepts zh_cn as Simplified Chinese', async () => {
    localStorage.setItem('lang', 'zh_cn');
    expect(resolveInitialLanguage()).toBe('cn');
  });

  it('makes the first site language active on a first visit, but keeps a stored choice', async () => {
    await expect(adoptSiteLanguage(['pt', 'en'])).resolves.toBe('pt');
    expect(localStorage.getItem('lang')).toBe('pt');
    expect(i18next.language).toBe('pt');
    expect(document.documentElement.lang).toBe('pt-BR');

    localStorage.setItem('lang', 'pt');
    await expect(adoptSiteLanguage(['th'])).resolves.toBe('pt');
    expect(localStorage.getItem('lang')).toBe('pt');
  });
});
