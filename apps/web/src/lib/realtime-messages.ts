/**
 * Non-balance messages of the member's realtime connection (balance-socket.ts), e.g. a new
 * notification. Kept apart from the socket code so features can listen without loading it.
 */
export type TRealtimeMessage = { type: string } & Record<string, unknown>;
type TListener = (message: TRealtimeMessage) => void;

const listeners = new Set<TListener>();

export function subscribeRealtime(listener: TListener): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

export function dispatchRealtime(message: TRealtimeMessage): void {
  for (const listener of listeners) listener(message);
}
