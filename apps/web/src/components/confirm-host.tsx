import { confirmStore } from '../lib/dialog.ts';
import { useStore } from '../lib/store.ts';
import { Modal } from './modal.tsx';

/** Renders the pending confirm dialog, if any (see lib/dialog.ts). */
export function ConfirmHost() {
  const pending = useStore(confirmStore);
  if (!pending) return null;
  return (
    <Modal title={pending.message} onClose={() => pending.resolve(false)} testId="confirm-dialog">
      <div className="confirm__actions">
        <button type="button" className="button button--ghost" onClick={() => pending.resolve(false)}>
          {pending.cancelLabel}
        </button>
        <button type="button" className="button button--primary" onClick={() => pending.resolve(true)}>
          {pending.confirmLabel}
        </button>
      </div>
    </Modal>
  );
}
