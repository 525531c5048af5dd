import { type ReactNode, useEffect, useId, useRef } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { Icon } from './icon.tsx';

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select, textarea, [tabindex]:not([tabindex="-1"])';

/**
 * An accessible modal: focus moves in and is kept inside, Escape and the backdrop close it, focus
 * returns to the opener, and the page behind does not scroll. Not the native <dialog> top layer,
 * because toasts (the server's messages) must stay visible above an open form.
 * On phones it rises from the bottom as a sheet; on wider screens it is centred.
 */
export function Modal({
  title,
  onClose,
  children,
  testId,
  placement = 'sheet',
}: {
  title: string;
  onClose: () => void;
  children: ReactNode;
  testId?: string;
  /** 'top': hangs from the top of the screen (search: the phone's keyboard opens below it). */
  placement?: 'sheet' | 'top';
}) {
  const { t } = useTranslation();
  const panel = useRef<HTMLDivElement>(null);
  const titleId = useId();
  const close = useRef(onClose);
  close.current = onClose;

  useEffect(() => {
    const opener = document.activeElement as HTMLElement | null;
    const element = panel.current;
    // The panel itself takes focus: a screen reader announces the dialog, and a phone does not
    // throw its keyboard over the form before the player has seen it.
    element?.focus({ preventScroll: true });
    const overflow = document.body.style.overflow;
    document.body.style.overflow = 'hidden';

    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        event.stopPropagation();
        close.current();
        return;
      }
      if (event.key !== 'Tab' || !element) return;
      const items = [...element.querySelectorAll<HTMLElement>(FOCUSABLE)];
      if (items.length === 0) return;
      const head = items[0]!;
      const tail = items[items.length - 1]!;
      if (event.shiftKey && document.activeElement === head) {
        event.preventDefault();
        tail.focus();
      } else if (!event.shiftKey && document.activeElement === tail) {
        event.preventDefault();
        head.focus();
      }
    };
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.body.style.overflow = overflow;
      opener?.focus?.({ preventScroll: true });
    };
  }, []);

  // A portal to <body>: a modal opened inside a page must not be trapped under the page's
  // stacking context (the bottom navigation would cover it).
  return createPortal(
    // Clicking the backdrop is a pointer shortcut; keyboard users have Escape and the close button.
    // biome-ignore lint/a11y/noStaticElementInteractions: see above
    <div
      className={`modal-backdrop${placement === 'top' ? ' modal-backdrop--top' : ''}`}
      onMouseDown={(event) => event.target === event.currentTarget && onClose()}
    >
      <div
        ref={panel}
        className="modal"
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        data-testid={testId}
        tabIndex={-1}
      >
        {/* Not a <header>: in a dialog it would be a second "banner" landmark beside the page's. */}
        <div className="modal__header">
          <h2 id={titleId} className="modal__title">
            {title}
          </h2>
          <button type="button" className="icon-button" onClick={onClose} aria-label={t('common.close')}>
            <Icon name="close" />
          </button>
        </div>
        {children}
      </div>
    </div>,
    document.body,
  );
}
