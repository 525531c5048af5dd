import { createStore } from '../../lib/store.ts';

/** Chromium's install event (not in the DOM typings). */
export interface BeforeInstallPromptEvent extends Event {
  prompt(): Promise<void>;
  userChoice: Promise<{ outcome: 'accepted' | 'dismissed' }>;
}

/** The deferred install prompt, when the browser offered one. */
export const installPromptStore = createStore<BeforeInstallPromptEvent | null>(null);
export const installedStore = createStore<boolean>(false);

export function captureInstallPrompt(): void {
  window.addEventListener('beforeinstallprompt', (event) => {
    // Keep the browser's mini-infobar away; we offer installation from our own modal.
    event.preventDefault();
    installPromptStore.set(event as BeforeInstallPromptEvent);
  });
  window.addEventListener('appinstalled', () => {
    installPromptStore.set(null);
    installedStore.set(true);
  });
  if (isStandalone()) installedStore.set(true);
}

export function isStandalone(): boolean {
  return (
    window.matchMedia?.('(display-mode: standalone)').matches === true ||
    (navigator as Navigator & { standalone?: boolean }).standalone === true
  );
}

export type TPlatform = 'ios' | 'android' | 'other';

export function detectPlatform(userAgent: string = navigator.userAgent): TPlatform {
  if (/iPad|iPhone|iPod/.test(userAgent) || (/Macintosh/.test(userAgent) && navigator.maxTouchPoints > 1)) {
    return 'ios';
  }
  if (/Android/.test(userAgent)) return 'android';
  return 'other';
}

/** Set when a new worker is installed and waiting; calling it activates the new version. */
export const updateStore = createStore<(() => void) | null>(null);
