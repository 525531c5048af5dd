import { createStore } from './store.ts';

/** One confirm dialog at a time; `confirmDialog` resolves with the player's answer. */
export interface TPendingConfirm {
  message: string;
  confirmLabel: string;
  cancelLabel: string;
  resolve: (answer: boolean) => void;
}

export const confirmStore = createStore<TPendingConfirm | null>(null);

export function confirmDialog(message: string, confirmLabel: string, cancelLabel: string): Promise<boolean> {
  const pending = confirmStore.get();
  // A second question while one is open would stack dialogs; the first answer serves both.
  if (pending?.message === message) {
    return new Promise((resolve) => {
      const previous = pending.resolve;
      pending.resolve = (answer) => {
        previous(answer);
        resolve(answer);
      };
    });
  }
  return new Promise((resolve) => {
    confirmStore.set({
      message,
      confirmLabel,
      cancelLabel,
      resolve: (answer) => {
        confirmStore.set(null);
        resolve(answer);
      },
    });
  });
}
