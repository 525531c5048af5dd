import { createStore } from './store.ts';

/**
 * Login, register and install-app are modal states, not routes (spec §2). Any part of the app may
 * open one — a guest notice, the header, the API client when a session expires.
 */
export type TAuthModal = 'login' | 'register' | 'install' | null;

export const modalStore = createStore<TAuthModal>(null);

export const openModal = (modal: Exclude<TAuthModal, null>) => modalStore.set(modal);
export const closeModal = () => modalStore.set(null);
