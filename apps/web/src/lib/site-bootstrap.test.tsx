import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { mockApi, ok } from '../test/api-mock.ts';
import { resolveInitialLanguage } from './i18n.ts';
import { queryClient } from './query-client.ts';
import { useSiteData } from './site.ts';
import { readSiteBootstrap, seedSiteQueries } from './site-bootstrap.ts';

const BR_SITE = { site: 'sorte-br', name: 'Sorte Brasil', languages: ['pt', 'en'], jurisdiction: 'br' };
const LANGUAGES = [
  { language_code: 'pt', language_name: 'Português', language_flag_link: '/media/flags/pt.svg' },
];

function pageWith(json: string): Document {
  const doc = document.implementation.createHTMLDocument('page');
  const script = doc.createElement('script');
  script.id = 'site-bootstrap';
  script.type = 'application/json';
  script.textContent = json;
  doc.head.append(script);
  return doc;
}

function SiteName() {
  const { data } = useSiteData();
  return <p data-testid="site-name">{data?.name ?? 'no site yet'}</p>;
}

afterEach(() => {
  document.getElementById('site-bootstrap')?.remove();
});

describe('the site bootstrap written into the page', () => {
  it('is read from the page, and a page without one or with a broken one gives none', () => {
    const bootstrap = readSiteBootstrap(pageWith(JSON.stringify({ site: BR_SITE, languages: LANGUAGES })));
    expect(bootstrap?.site.site).toBe('sorte-br');
    expect(bootstrap?.languages).toEqual(LANGUAGES);
    expect(readSiteBootstrap(document.implementation.createHTMLDocument('none'))).toBeNull();
    expect(readSiteBootstrap(pageWith('{"site":'))).toBeNull();
    expect(readSiteBootstrap(pageWith('{"languages":[]}'))).toBeNull();
  });

  it("makes a first visit speak the site's first language, and a player's own choice wins", () => {
    expect(resolveInitialLanguage(['pt', 'en'])).toBe('pt');
    expect(resolveInitialLanguage([])).toBe('en');
    localStorage.setItem('lang', 'th');
    expect(resolveInitialLanguage(['pt', 'en'])).toBe('th');
  });

  it('draws the first frame with the site it names, then refreshes it from the server', async () => {
    const api = mockApi({
      'GET /api/dynamicwebs/getdata': () => ({ body: ok({ ...BR_SITE, name: 'Sorte Brasil (fresh)' }) }),
    });
    seedSiteQueries(readSiteBootstrap(pageWith(JSON.stringify({ site: BR_SITE, languages: LANGUAGES })))!);
    render(
      <QueryClientProvider client={queryClient}>
        <SiteName />
      </QueryClientProvider>,
    );
    // The very first render: no request has been answered yet.
    expect(screen.getByTestId('site-name').textContent).toBe('Sorte Brasil');
    expect(await screen.findByText('Sorte Brasil (fresh)')).toBeTruthy();
    expect(api.calls.map((call) => call.url.pathname)).toEqual(['/api/dynamicwebs/getdata']);
  });
});
