import { lazy, Suspense, useEffect } from 'react';
import { modalStore } from '../lib/auth-modal.ts';
import { useStore } from '../lib/store.ts';
import { toasterMounted, toasterWanted } from '../lib/toast.ts';

const Toaster = lazy(() => import('sonner').then((module) => ({ default: module.Toaster })));

/** Runs its effect after the Toaster (its earlier sibling) has subscribed to new toasts. */
function Ready() {
  useEffect(() => toasterMounted(), []);
  return null;
}

export function ToasterHost() {
  const wanted = useStore(toasterWanted);
  // A modal (login, register, install) is a sheet over the bottom of a phone's screen: while one
  // is open, messages show at the top, over the dimmed page, never over the sheet's buttons.
  const modal = useStore(modalStore);
  if (!wanted) return null;
  return (
    <Suspense fallback={null}>
      {/*
        Above the bottom bar on a phone and at the bottom corner on wider screens: never over the
        header's balance. One at a time: a newer message replaces the older instead of stacking.
      */}
      <Toaster
        position={modal ? 'top-center' : 'bottom-center'}
        theme="dark"
        richColors
        closeButton
        duration={4000}
        visibleToasts={1}
        offset={{ bottom: 24, top: 24 }}
        mobileOffset={{
          bottom: 'calc(84px + env(safe-area-inset-bottom))',
          top: 'calc(16px + env(safe-area-inset-top))',
        }}
      />
      <Ready />
    </Suspense>
  );
}
