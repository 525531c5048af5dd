import { afterEach, describe, expect, it } from 'vitest';
import { fail, mockApi, ok } from '../test/api-mock.ts';
import { makeUser } from '../test/fixtures.ts';
import { queryClient, USER_QUERY_KEY } from './query-client.ts';
import { isRemembered, restoreRememberedSession, setRemembered } from './remembered-session.ts';
import { endSession, startSession } from './session.ts';
import { getToken, setToken } from './storage.ts';

const session = (token: string) => ({
  token,
  token_type: 'Bearer' as const,
  expires_at: '2026-12-01T00:00:00Z',
  user: makeUser(),
  previous_login: null,
});

describe('"keep me signed in" on a cold start', () => {
  afterEach(() => {
    setToken(null);
    setRemembered(false);
  });

  it('a guest (never remembered) sends no refresh request at all', async () => {
    const { calls } = mockApi({});
    expect(await restoreRememberedSession()).toBe(false);
    expect(calls).toHaveLength(0);
  });

  it('a remembered device trades its cookie for a new bearer token before the first render', async () => {
    setRemembered(true);
    const { calls } = mockApi({ 'POST /api/auth/refresh': () => ({ body: ok(session('fresh-token')) }) });
    expect(await restoreRememberedSession()).toBe(true);
    expect(getToken()).toBe('fresh-token');
    expect(queryClient.getQueryData(USER_QUERY_KEY)).toEqual(session('fresh-token').user);
    // The cookie is the credential: no bearer token goes with the request.
    expect(calls[0]!.headers.Authorization).toBeUndefined();
  });

  it('a refused cookie forgets the device; a network failure keeps it for the next start', async () => {
    setRemembered(true);
    mockApi({
      'POST /api/auth/refresh': () => ({ status: 401, body: fail('UNAUTHENTICATED', 'Unauthenticated.') }),
    });
    expect(await restoreRememberedSession()).toBe(false);
    expect(isRemembered()).toBe(false);

    setRemembered(true);
    mockApi({ 'POST /api/auth/refresh': () => ({ status: 503, body: fail('UNAVAILABLE', 'Busy') }) });
    expect(await restoreRememberedSession()).toBe(false);
    expect(isRemembered()).toBe(true);
  });

  it('two tabs starting together refresh one after the other, each with its own session', async () => {
    setRemembered(true);
    let issued = 0;
    let inFlight = 0;
    let overlapped = false;
    mockApi({
      'POST /api/auth/refresh': async () => {
        inFlight += 1;
        overlapped ||= inFlight > 1;
        await new Promise((resolve) => setTimeout(resolve, 5));
        inFlight -= 1;
        issued += 1;
        return { body: ok(session(`token-${issued}`)) };
      },
    });
    // Two tabs: each has its own (empty) sessionStorage; the lock is shared by the browser.
    const tab = async () => {
      setToken(null);
      return restoreRememberedSession();
    };
    expect(await Promise.all([tab(), tab()])).toEqual([true, true]);
    expect(overlapped).toBe(false);
  });

  it('signing in remembers the device only when asked; logging out forgets it', async () => {
    mockApi({
      'POST /api/auth/me': () => ({ body: ok(makeUser()) }),
      'POST /api/profilepictures/user': () => ({ body: ok({ profileurl: null }) }),
      'POST /api/auth/logout': () => ({ body: ok(null) }),
    });
    await startSession(session('plain'));
    expect(isRemembered()).toBe(false);
    await startSession(session('kept'), true);
    expect(isRemembered()).toBe(true);
    await endSession();
    expect(isRemembered()).toBe(false);
  });
});
