/**
 * What the browser keeps for us. The bearer token lives in sessionStorage (it dies with the tab, as
 * the spec asks); the chosen language and this browser's device id live in localStorage (they
 * survive restarts).
 * Every access is guarded: private modes and full quotas throw, and a broken storage must never
 * break the page.
 */
export const TOKEN_KEY = 'token';
export const LANGUAGE_KEY = 'lang';
export const DEVICE_KEY = 'device';

type Listener = () => void;
const tokenListeners = new Set<Listener>();

function read(storage: () => Storage, key: string): string | null {
  try {
    return storage().getItem(key);
  } catch {
    return null;
  }
}

function write(storage: () => Storage, key: string, value: string | null): void {
  try {
    if (value === null) storage().removeItem(key);
    else storage().setItem(key, value);
  } catch {
    // Storage unavailable: the value simply does not persist.
  }
}

export function getToken(): string | null {
  return read(() => sessionStorage, TOKEN_KEY);
}

export function setToken(token: string | null): void {
  write(() => sessionStorage, TOKEN_KEY, token);
  for (const listener of tokenListeners) listener();
}

/** Subscribe to token changes (login, logout, expiry) — for useSyncExternalStore. */
export function subscribeToken(listener: Listener): () => void {
  tokenListeners.add(listener);
  return () => tokenListeners.delete(listener);
}

export function getStoredLanguage(): string | null {
  return read(() => localStorage, LANGUAGE_KEY);
}

export function setStoredLanguage(code: string): void {
  write(() => localStorage, LANGUAGE_KEY, code);
}

/**
 * This browser's device id, a random UUID made on first use and sent with every call: the server
 * compares it across accounts (compliance, ADR 040) as it could not compare user agents, which a
 * whole phone model shares. Null when storage cannot keep it (a private mode): then none is sent.
 */
export function getDeviceId(): string | null {
  const kept = read(() => localStorage, DEVICE_KEY);
  if (kept) return kept;
  write(() => localStorage, DEVICE_KEY, crypto.randomUUID());
  return read(() => localStorage, DEVICE_KEY);
}

/** An operator ended the session: nothing of it may remain in this browser. */
export function clearAllStorage(): void {
  try {
    sessionStorage.clear();
  } catch {
    // ignore: see above
  }
  try {
    localStorage.clear();
  } catch {
    // ignore: see above
  }
  for (const listener of tokenListeners) listener();
}
