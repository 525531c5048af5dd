import { lazy, Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Icon } from '../../../components/icon.tsx';
import './chat.css';

const ChatPanel = lazy(() => import('./chat-panel.tsx'));

/**
 * The chat button on every screen; the panel (and its socket) load only once someone opens it.
 * The support page's "live chat" channel opens it too (event `sorte:open-chat`).
 */
export function ChatLauncher() {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  useEffect(() => {
    const openChat = () => setOpen(true);
    window.addEventListener('sorte:open-chat', openChat);
    return () => window.removeEventListener('sorte:open-chat', openChat);
  }, []);
  return (
    <>
      {!open && (
        <button
          type="button"
          className="chat-launcher"
          data-testid="open-chat"
          aria-label={t('community.chat.open')}
          onClick={() => setOpen(true)}
        >
          <Icon name="users" size={22} />
        </button>
      )}
      {open && (
        <Suspense fallback={null}>
          <ChatPanel onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </>
  );
}
