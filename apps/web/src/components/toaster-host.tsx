import { lazy, Suspense, useEffect } from 'react';
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
  if (!wanted) return null;
  return (
    <Suspense fallback={null}>
      <Toaster position="top-center" theme="dark" richColors closeButton duration={4000} />
      <Ready />
    </Suspense>
  );
}
