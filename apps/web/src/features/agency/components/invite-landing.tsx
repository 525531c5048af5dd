import { useEffect } from 'react';
import { openModal } from '../../../lib/auth-modal.ts';
import { useHasToken } from '../../../lib/session.ts';

/** An invite link (`/?invite=CODE`) opens the sign-up form for a guest; the form reads the code. */
export function InviteLanding() {
  const hasToken = useHasToken();
  useEffect(() => {
    if (hasToken) return;
    const params = new URLSearchParams(window.location.search);
    if (params.get('invite') || params.get('code')) openModal('register');
  }, [hasToken]);
  return null;
}
