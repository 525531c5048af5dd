import i18next from 'i18next';
import { describe, expect, it, vi } from 'vitest';
import { fail, mockApi, ok } from '../test/api-mock.ts';
import { makeUser } from '../test/fixtures.ts';
import { ApiError, api, unreachableStore } from './api-client.ts';
import { modalStore } from './auth-modal.ts';
import { confirmStore } from './dialog.ts';
import { queryClient, USER_QUERY_KEY } from './query-client.ts';
import { setRemembered } from './remembered-session.ts';
import { getToken, setToken } from './storage.ts';
import { toast } from './toast.ts';

vi.mock('./toast.ts', () => ({ toast: { error: vi.fn(), success: vi.fn() } }));

const unauthenticated = (extra: Record<string, unknown> = {}) => ({
  status: 401,
  body: fail('UNAUTHENTICATED', 'Unauthenticated.', extra),
});

describe('api client', () => {
  it('adds the active language as the lang query parameter', async () => {
    const { calls } = mockApi({ 'GET /api/language/getList': () => ({ body: ok([]) }) });
    await api.get('api/language/getList', { query: { domain: 'localhost' } });
    await i18next.changeLanguage('pt');
    await api.get('/api/language/getList');
    expect(calls[0]?.url.pathname).toBe('/api/language/getList');
    expect(calls[0]?.url.searchParams.get('lang')).toBe('en');
    expect(calls[0]?.url.searchParams.get('domain')).toBe('localhost');
    expect(calls[1]?.url.searchParams.get('lang')).toBe('pt');
  });

  it('sends the bearer token from sessionStorage only when there is one', async () => {
    const { calls } = mockApi({ 'POST /api/auth/me': () => ({ body: ok(makeUser()) }) });
    await api.post('/api/auth/me');
    setToken('token-123');
    await api.post('/api/auth/me');
    expect(calls[0]?.headers.Authorization).toBeUndefined();
    expect(calls[1]?.headers.Authorization).toBe('Bearer token-123');
  });

  it("sends this browser's device id, the same on every call and kept in localStorage", async () => {
    const { calls } = mockApi({ 'POST /api/auth/me': () => ({ body: ok(makeUser()) }) });
    await api.post('/api/auth/me');
    await api.post('/api/auth/me');
    const sent = calls[0]?.headers['X-Sorte-Device'];
    expect(sent).toMatch(/^[0-9a-f-]{36}$/);
    expect(calls[1]?.headers['X-Sorte-Device']).toBe(sent);
    expect(localStorage.getItem('device')).toBe(sent);
  });

  it('unwraps the envelope to its data', async () => {
    mockApi({
      'GET /api/profilepictures': () => ({ body: ok({ male: [{ id: 1, url: '/m.png' }], female: [] }) }),
    });
    await expect(api.get('/api/profilepictures')).resolves.toEqual({
      male: [{ id: 1, url: '/m.png' }],
      female: [],
    });
  });

  it('turns a failed envelope into an ApiError and toasts the server message', async () => {
    mockApi({
      'POST /api/auth/register2': () => ({
        status: 409,
        body: fail('USERNAME_TAKEN', 'This account is already registered', { errors: { username: 'Taken' } }),
      }),
    });
    const error = await api.post('/api/auth/register2', {}).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ code: 'USERNAME_TAKEN', status: 409, errors: { username: 'Taken' } });
    expect(toast.error).toHaveBeenCalledWith('This account is already registered');
  });

  it('does not toast when the caller asks for silence', async () => {
    mockApi({ 'GET /api/language/getList': () => ({ status: 500, body: fail('INTERNAL', 'Boom') }) });
    await expect(api.get('/api/language/getList', { silent: true })).rejects.toBeInstanceOf(ApiError);
    expect(toast.error).not.toHaveBeenCalled();
  });

  it('reports a network failure as NETWORK with the translated text', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))),
    );
    await expect(api.get('/api/dynamicwebs/getdata')).rejects.toMatchObject({ code: 'NETWORK' });
    expect(toast.error).toHaveBeenCalledWith('Network error, please try again later', {
      id: 'network-error',
    });
    // The shell's offline notice follows: unreachable until the next answer of any kind.
    expect(unreachableStore.get()).toBe(true);
    mockApi({ 'GET /api/language/getList': () => ({ status: 500, body: fail('INTERNAL', 'Boom') }) });
    await expect(api.get('/api/language/getList', { silent: true })).rejects.toBeInstanceOf(ApiError);
    expect(unreachableStore.get()).toBe(false);
  });

  it('keeps the offline notice up on an answer the service worker gave from its cache', async () => {
    unreachableStore.set(false);
    const cached = (body: unknown) =>
      new Response(JSON.stringify(body), {
        status: 200,
        headers: { 'content-type': 'application/json', 'x-sorte-from-cache': '1' },
      });
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => cached({ code: 0, msg: 'ok', data: { list: [] } })),
    );
    await api.get('/api/games/popular', { silent: true }).catch(() => undefined);
    expect(unreachableStore.get()).toBe(true);
    mockApi({ 'GET /api/language/getList': () => ({ status: 500, body: fail('INTERNAL', 'Boom') }) });
    await expect(api.get('/api/language/getList', { silent: true })).rejects.toBeInstanceOf(ApiError);
    expect(unreachableStore.get()).toBe(false);
  });

  it('resets the user info on 401', async () => {
    setToken('old');
    queryClient.setQueryData(USER_QUERY_KEY, makeUser());
    mockApi({ 'POST /api/auth/me': () => unauthenticated() });
    await expect(api.post('/api/auth/me')).rejects.toMatchObject({ code: 'UNAUTHENTICATED' });
    expect(queryClient.getQueryData(USER_QUERY_KEY)).toBeNull();
    expect(getToken()).toBeNull();
    confirmStore.get()?.resolve(false);
  });

  it('on 401 with force_offline clears session and local storage and shows network-error', async () => {
    setToken('old');
    localStorage.setItem('lang', 'pt');
    localStorage.setItem('something', 'else');
    sessionStorage.setItem('other', 'x');
    mockApi({ 'POST /api/auth/me': () => unauthenticated({ force_offline: true }) });
    await expect(api.post('/api/auth/me')).rejects.toMatchObject({ forceOffline: true });
    expect(sessionStorage.length).toBe(0);
    expect(localStorage.length).toBe(0);
    expect(toast.error).toHaveBeenCalledWith('Network error, please try again later', {
      id: 'network-error',
    });
    expect(confirmStore.get()).toBeNull();
  });

  it('asks to log in again when a stored session expires, and opens the login modal on yes', async () => {
    setToken('expired');
    mockApi({ 'POST /api/auth/me': () => unauthenticated() });
    await expect(api.post('/api/auth/me')).rejects.toBeInstanceOf(ApiError);
    await vi.waitFor(() =>
      expect(confirmStore.get()?.message).toBe('Login expired, do you want to log in again'),
    );
    confirmStore.get()?.resolve(true);
    await vi.waitFor(() => expect(modalStore.get()).toBe('login'));
    modalStore.set(null);
  });

  it('a remembered device whose session expires signs back in with its cookie instead of asking', async () => {
    setToken('expired');
    setRemembered(true);
    const fresh = makeUser();
    mockApi({
      'POST /api/auth/me': () => unauthenticated(),
      'POST /api/auth/refresh': () => ({
        body: ok({ token: 'renewed', token_type: 'Bearer', expires_at: '2030-01-01T00:00:00Z', user: fresh }),
      }),
    });
    await expect(api.post('/api/auth/me')).rejects.toBeInstanceOf(ApiError);
    await vi.waitFor(() => expect(getToken()).toBe('renewed'));
    expect(confirmStore.get()).toBeNull();
    setRemembered(false);
    setToken(null);
  });

  it('a session signed out for idleness asks for the password with the server reason, even on a remembered device', async () => {
    setToken('idle');
    setRemembered(true);
    const message = 'You were signed out after 30 minutes without activity. Please log in again';
    const { calls } = mockApi({
      'POST /api/auth/me': () => ({
        status: 401,
        body: fail('SESSION_IDLE', message, { idle_minutes: 30 }),
      }),
    });
    await expect(api.post('/api/auth/me')).rejects.toBeInstanceOf(ApiError);
    await vi.waitFor(() => expect(confirmStore.get()?.message).toBe(message));
    expect(getToken()).toBeNull();
    expect(calls.some((call) => call.url.pathname === '/api/auth/refresh')).toBe(false);
    confirmStore.get()?.resolve(true);
    await vi.waitFor(() => expect(modalStore.get()).toBe('login'));
    modalStore.set(null);
    setRemembered(false);
  });

  it('ignores a 401 that answers a session already ended here, so a logout never reads as expiry', async () => {
    setToken('ended-by-logout');
    queryClient.setQueryData(USER_QUERY_KEY, makeUser());
    let answer: (value: { status: number; body: unknown }) => void = () => undefined;
    const inFlight = new Promise<{ status: number; body: unknown }>((resolve) => {
      answer = resolve;
    });
    mockApi({
      'POST /api/games/recent': () => inFlight,
    });
    const pending = api.post('/api/games/recent', {}, { silent: true });
    // The player logs out and logs in again while the request is in flight.
    setToken('new-session');
    answer(unauthenticated());
    await expect(pending).rejects.toBeInstanceOf(ApiError);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(confirmStore.get()).toBeNull();
    expect(getToken()).toBe('new-session');
    expect(queryClient.getQueryData(USER_QUERY_KEY)).not.toBeNull();
  });

  it('does not ask about expiry when there was no session, nor for a wrong password', async () => {
    mockApi({
      'POST /api/auth/me': () => unauthenticated(),
      'POST /api/auth/login2': () => ({
        status: 401,
        body: fail('INVALID_CREDENTIALS', 'Wrong account or password'),
      }),
    });
    await expect(api.post('/api/auth/me')).rejects.toBeInstanceOf(ApiError);
    setToken('valid');
    await expect(api.post('/api/auth/login2', {})).rejects.toMatchObject({ code: 'INVALID_CREDENTIALS' });
    expect(confirmStore.get()).toBeNull();
    expect(getToken()).toBe('valid');
    expect(toast.error).toHaveBeenCalledWith('Wrong account or password');
  });
});
