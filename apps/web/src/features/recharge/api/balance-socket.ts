import { useEffect, useRef } from 'react';
import { subscribeBalancePush, type TBalancePush } from '../../../lib/balance-socket.ts';

export type { TBalancePush };

/**
 * Calls `onPush` for every balance push while the calling page is open. The app shell holds the
 * one connection (lib/balance-socket.ts); this only listens to it.
 */
export function useBalancePush(onPush: (push: TBalancePush) => void): void {
  const handler = useRef(onPush);
  handler.current = onPush;
  useEffect(() => subscribeBalancePush((push) => handler.current(push)), []);
}
