import { useEffect } from 'react';
import { useHasToken } from '../../lib/session.ts';

/**
 * The player's one realtime connection, for every screen: the header balance follows deposits,
 * withdrawals, bets and game wins without a reload. Guests open no socket, and a guest's phone
 * never downloads the socket code: it loads once someone logs in.
 */
export function BalanceConnection() {
  const hasToken = useHasToken();
  useEffect(() => {
    if (!hasToken) return;
    let stop: (() => void) | null = null;
    let unmounted = false;
    void import('../../lib/balance-socket.ts').then(({ connectBalanceSocket }) => {
      if (!unmounted) stop = connectBalanceSocket();
    });
    return () => {
      unmounted = true;
      stop?.();
    };
  }, [hasToken]);
  return null;
}
