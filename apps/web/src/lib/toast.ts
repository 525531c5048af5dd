import type { ExternalToast } from 'sonner';
import { createStore } from './store.ts';

/**
 * Toasts through sonner, loaded the first time a toast is needed: a visit without messages never
 * downloads the toast library. A toast waits until the toaster is on screen (sonner's Toaster only
 * shows toasts created after it subscribed).
 */

/** True once anything asked for a toast; the toaster host mounts sonner then. */
export const toasterWanted = createStore(false);

let markReady: () => void = () => {};
const toasterReady = new Promise<void>((resolve) => {
  markReady = resolve;
});

/** Called by the toaster host once sonner's Toaster has mounted. */
export function toasterMounted(): void {
  markReady();
}

type TKind = 'error' | 'success';

/** Toasts on screen now, by id, with when they were asked for. */
const shown = new Map<string | number, number>();
let lastId = 0;
/** A toast asked for this recently survives a navigation: it reports what led there. */
const NAVIGATION_GRACE_MS = 400;

async function show(kind: TKind, message: string, options?: ExternalToast): Promise<void> {
  toasterWanted.set(true);
  lastId += 1;
  // A caller's own id (e.g. 'network-error') keeps one toast per cause; others get a fresh one.
  const id = options?.id ?? lastId;
  shown.set(id, Date.now());
  const [{ toast: sonner }] = await Promise.all([import('sonner'), toasterReady]);
  if (!shown.has(id)) return;
  const forget = () => shown.delete(id);
  sonner[kind](message, { ...options, id, onAutoClose: forget, onDismiss: forget });
}

/**
 * A new screen starts clean: the messages of the screen the player left are cleared (they would
 * otherwise sit over the new one). Those asked for while leaving (e.g. "saved", then the page
 * moves on) stay.
 */
export function clearToastsOnNavigation(now = Date.now()): void {
  const stale = [...shown].filter(([, at]) => now - at > NAVIGATION_GRACE_MS).map(([id]) => id);
  if (stale.length === 0) return;
  for (const id of stale) shown.delete(id);
  void import('sonner').then(({ toast: sonner }) => {
    for (const id of stale) sonner.dismiss(id);
  });
}

export const toast = {
  error: (message: string, options?: ExternalToast): void => void show('error', message, options),
  success: (message: string, options?: ExternalToast): void => void show('success', message, options),
};
