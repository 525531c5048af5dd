import { lazy, Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Icon } from '../../../components/icon.tsx';
import './chat.css';

const ChatPanel = lazy(() => import('./chat-panel.tsx'));

/** Opens the chat from anywhere: the phone's bottom navigation, the support page's live chat. */
export const OPEN_CHAT_EVENT = 'sorte:open-chat';

/**
 * The chat button (floating on wide screens; on phones the bottom navigation opens it instead);
 * the panel (and its socket) load only once someone opens it.
 * The support page's "live chat" channel opens it too (event `sorte:open-chat`).
 */
export function ChatLauncher() {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  useEffect(() => {
    const openChat = () => setOpen(true);
    window.addEventListener(OPEN_CHAT_EVENT, openChat);
    return () => window.removeEventListener(OPEN_CHAT_EVENT, openChat);
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
