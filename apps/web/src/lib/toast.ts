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

async function show(kind: TKind, message: string, options?: ExternalToast): Promise<void> {
  toasterWanted.set(true);
  const [{ toast: sonner }] = await Promise.all([import('sonner'), toasterReady]);
  sonner[kind](message, options);
}

export const toast = {
  error: (message: string, options?: ExternalToast): void => void show('error', message, options),
  success: (message: string, options?: ExternalToast): void => void show('success', message, options),
};
