import { Suspense, useEffect } from 'react';
import { Outlet, useLocation } from 'react-router';
import { ConfirmHost } from '../../components/confirm-host.tsx';
import { Spinner } from '../../components/spinner.tsx';
import { ToasterHost } from '../../components/toaster-host.tsx';
import { OfflineNotice } from '../../features/pwa/components/offline-notice.tsx';
import { UpdateNotice } from '../../features/pwa/components/update-notice.tsx';
import { SiteTheme } from '../../features/site/components/site-theme.tsx';
import { TermsGate } from '../../features/terms/terms-modal.tsx';
import { modalStore } from '../../lib/auth-modal.ts';
import { useStore } from '../../lib/store.ts';
import { clearToastsOnNavigation } from '../../lib/toast.ts';
import { BalanceConnection } from './balance-connection.tsx';
import { ModalHost } from './modal-host.tsx';

/**
 * Every navigation starts at the top of the page (spec §2) — except a link to a #section, which
 * the page scrolls to itself — and without the previous screen's toasts. A modal opening (login,
 * register, install: a sheet over the bottom of a phone's screen) also clears them, so an older
 * message never sits over the sheet's buttons.
 */
function ScrollToTop() {
  const { pathname, hash } = useLocation();
  const modal = useStore(modalStore);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the path change is the trigger.
  useEffect(() => {
    if (!hash) window.scrollTo(0, 0);
    clearToastsOnNavigation();
  }, [pathname]);
  useEffect(() => {
    if (modal) clearToastsOnNavigation();
  }, [modal]);
  return null;
}

/** What every screen has, inside or outside the index layout. */
export function RootShell() {
  return (
    <>
      <ScrollToTop />
      <BalanceConnection />
      <SiteTheme />
      <OfflineNotice />
      <Suspense fallback={<Spinner />}>
        <Outlet />
      </Suspense>
      <ModalHost />
      <TermsGate />
      <ConfirmHost />
      <UpdateNotice />
      <ToasterHost />
    </>
  );
}
