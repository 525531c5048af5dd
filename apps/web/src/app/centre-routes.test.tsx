import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { Suspense } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { queryClient } from '../lib/query-client.ts';
import { setToken } from '../lib/storage.ts';
import { mockApi, ok } from '../test/api-mock.ts';
import { ROUTES } from './routes.tsx';

/**
 * Spec §2 lists the centres' pages as their children ("Security center: /security-center,
 * /verify-password, …"): each opens its own feature under the centre as at its short path.
 */
const CENTRE_PAGES = [
  ['/information-center/notification', '/notification', 'notification'],
  ['/information-center/announcement', '/announcement', 'announcement'],
  ['/security-center/verify-password', '/verify-password', 'verify-password'],
  ['/security-center/bind-email', '/bind-email', 'bind-email-address'],
  ['/security-center/change-password', '/change-password', 'change-old_password'],
  ['/agency-center/agent', '/agent', undefined],
] as const;

function renderAt(path: string) {
  mockApi({
    'GET /api/informationcenter/notification': () => ({
      body: ok({
        data: [
          {
            id: 1,
            kind: 'deposit_credited',
            params: { amount: '50.00' },
            read: false,
            created_at: '2026-12-01T10:00:00Z',
          },
        ],
        unread: 1,
      }),
    }),
    'GET /api/informationcenter/announcement': () => ({
      body: ok({
        data: [{ id: 2, title: 'Maintenance', body: 'Tonight', published_at: '2026-12-01T10:00:00Z' }],
      }),
    }),
    'GET /api/security/overview': () => ({
      body: ok({
        has_qk_pwd: false,
        email: null,
        email_verified: false,
        totp_enabled: false,
        recovery_codes_left: 0,
        password_changed_at: null,
        last_login: null,
        current_login: { at: '2026-12-01T10:00:00Z', ip: null },
        password_verified_until: null,
      }),
    }),
  });
  const router = createMemoryRouter(
    ROUTES.map((route) => ({ path: route.path, element: route.element })),
    { initialEntries: [path] },
  );
  render(
    <QueryClientProvider client={queryClient}>
      <Suspense fallback={null}>
        <RouterProvider router={router} />
      </Suspense>
    </QueryClientProvider>,
  );
}

describe("the centres' pages", () => {
  it.each(CENTRE_PAGES)('%s is the page at %s', (long, short) => {
    const element = (path: string) => ROUTES.find((route) => route.path === path)?.element.type;
    expect(element(long)).toBeDefined();
    expect(element(long)).toBe(element(short));
  });

  it.each(CENTRE_PAGES.filter(([, , testId]) => testId))(
    '%s opens its feature',
    async (long, _short, testId) => {
      setToken('t1');
      renderAt(long);
      expect(await screen.findAllByTestId(testId!)).not.toHaveLength(0);
    },
  );
});
