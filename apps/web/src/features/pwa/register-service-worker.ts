import { Workbox } from 'workbox-window';
import { pageReload } from '../../lib/page-reload.ts';
import { updateStore } from './pwa-state.ts';

/** Spec §9: look for a new version every 60 s; show the waiting notice 200 ms after it appears. */
export const UPDATE_CHECK_INTERVAL_MS = 60_000;
export const WAITING_NOTICE_DELAY_MS = 200;

export function registerServiceWorker(): void {
  if (!('serviceWorker' in navigator)) return;
  const workbox = new Workbox('/service-worker.js', { scope: '/' });

  workbox.addEventListener('waiting', () => {
    window.setTimeout(() => {
      updateStore.set(() => workbox.messageSkipWaiting());
    }, WAITING_NOTICE_DELAY_MS);
  });

  // A new worker took control: the page reloads so code and cache belong to the same version. The
  // first install (no previous controller) needs no reload.
  const hadController = navigator.serviceWorker.controller !== null;
  let reloading = false;
  navigator.serviceWorker.addEventListener('controllerchange', () => {
    if (!hadController || reloading) return;
    reloading = true;
    pageReload.run();
  });

  workbox
    .register()
    .then((registration) => {
      if (!registration) return;
      window.setInterval(() => {
        if (navigator.onLine) void registration.update().catch(() => undefined);
      }, UPDATE_CHECK_INTERVAL_MS);
    })
    .catch(() => {
      // Without a worker the site still works online; nothing to tell the player.
    });
}
