import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { pageReload } from '../../lib/page-reload.ts';
import { updateStore } from './pwa-state.ts';
import {
  registerServiceWorker,
  UPDATE_CHECK_INTERVAL_MS,
  WAITING_NOTICE_DELAY_MS,
} from './register-service-worker.ts';

const workbox = vi.hoisted(() => ({
  listeners: new Map<string, () => void>(),
  messageSkipWaiting: vi.fn(),
  update: vi.fn(async () => undefined),
  scriptUrl: '',
}));

vi.mock('workbox-window', () => ({
  Workbox: class {
    constructor(url: string) {
      workbox.scriptUrl = url;
    }
    addEventListener(type: string, listener: () => void) {
      workbox.listeners.set(type, listener);
    }
    messageSkipWaiting() {
      workbox.messageSkipWaiting();
    }
    async register() {
      return { update: workbox.update };
    }
  },
}));

function installContainer(controller: object | null) {
  const container = new EventTarget() as EventTarget & { controller: object | null };
  container.controller = controller;
  Object.defineProperty(navigator, 'serviceWorker', { value: container, configurable: true });
  return container;
}

describe('service worker registration', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => {
    vi.useRealTimers();
    updateStore.set(null);
    workbox.listeners.clear();
    Reflect.deleteProperty(navigator, 'serviceWorker');
  });

  it('registers /service-worker.js and checks for a new version every 60 s', async () => {
    installContainer(null);
    registerServiceWorker();
    expect(workbox.scriptUrl).toBe('/service-worker.js');
    await vi.advanceTimersByTimeAsync(UPDATE_CHECK_INTERVAL_MS * 2);
    expect(workbox.update).toHaveBeenCalledTimes(2);
    expect(UPDATE_CHECK_INTERVAL_MS).toBe(60_000);
  });

  it('shows the waiting notice 200 ms after a new version is waiting; accepting it activates the worker', async () => {
    installContainer({});
    registerServiceWorker();
    workbox.listeners.get('waiting')?.();
    await vi.advanceTimersByTimeAsync(WAITING_NOTICE_DELAY_MS - 1);
    expect(updateStore.get()).toBeNull();
    await vi.advanceTimersByTimeAsync(1);
    const activate = updateStore.get();
    expect(activate).toBeTypeOf('function');
    activate?.();
    expect(workbox.messageSkipWaiting).toHaveBeenCalled();
  });

  it('reloads the page once when a new worker takes control', () => {
    const reload = vi.spyOn(pageReload, 'run').mockImplementation(() => {});
    const container = installContainer({});
    registerServiceWorker();
    container.dispatchEvent(new Event('controllerchange'));
    container.dispatchEvent(new Event('controllerchange'));
    expect(reload).toHaveBeenCalledTimes(1);
  });
});
