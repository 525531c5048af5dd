import { lazy, Suspense } from 'react';
import { closeModal, modalStore } from '../../lib/auth-modal.ts';
import { useStore } from '../../lib/store.ts';

// Modals are their own chunks: the forms, zod and the validation catalogue load on first open.
const LoginModal = lazy(() => import('../../features/auth/components/login-modal.tsx'));
const RegisterModal = lazy(() => import('../../features/auth/components/register-modal.tsx'));
const InstallModal = lazy(() => import('../../features/pwa/components/install-modal.tsx'));

export function ModalHost() {
  const modal = useStore(modalStore);
  if (!modal) return null;
  return (
    <Suspense fallback={null}>
      {modal === 'login' && <LoginModal onClose={closeModal} />}
      {modal === 'register' && <RegisterModal onClose={closeModal} />}
      {modal === 'install' && <InstallModal onClose={closeModal} />}
    </Suspense>
  );
}
