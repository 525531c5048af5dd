import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { queryClient } from '../../../lib/query-client.ts';
import { setToken } from '../../../lib/storage.ts';
import { mockApi, ok } from '../../../test/api-mock.ts';
import { makeUser } from '../../../test/fixtures.ts';
import { ProfilePage } from './profile-page.tsx';

describe('profile page', () => {
  it('leads to responsible gaming and to the invite page from the player menu', async () => {
    setToken('player-token');
    mockApi({
      'POST /api/auth/me': () => ({ body: ok(makeUser()) }),
      'POST /api/profilepictures/user': () => ({ body: ok({ profileurl: null }) }),
    });
    render(
      <QueryClientProvider client={queryClient}>
        <MemoryRouter>
          <ProfilePage />
        </MemoryRouter>
      </QueryClientProvider>,
    );
    const responsible = await screen.findByRole('link', { name: 'Responsible gaming' });
    expect(responsible.getAttribute('href')).toBe('/responsible-gaming');
    expect(screen.getByRole('link', { name: /invite/i }).getAttribute('href')).toBe('/agency-center/invite');
  });
});
