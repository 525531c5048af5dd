/**
 * The two things the browser keeps for us. The bearer token lives in sessionStorage (it dies with the
 * tab, as the spec asks); the chosen language lives in localStorage (it survives restarts).
 * Every access is guarded: private modes and full quotas throw, and a broken storage must never
 * break the page.
 */
export const TOKEN_KEY = 'token';
export const LANGUAGE_KEY = 'lang';

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
