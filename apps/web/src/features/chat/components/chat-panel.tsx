import type { TChatMessage, TChatPush, TChatRoomResponse } from '@sorte/contract';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Icon } from '../../../components/icon.tsx';
import { ApiError, api } from '../../../lib/api-client.ts';
import { openModal } from '../../../lib/auth-modal.ts';
import { formatDateTime, formatMoney } from '../../../lib/format.ts';
import { useHasToken } from '../../../lib/session.ts';
import { toast } from '../../../lib/toast.ts';

const MAX_MESSAGES = 200;

type TLine = TChatMessage | { id: string; rain: true; text: string };

/**
 * The site's live room: history on join and new messages over /ws (`chat_join`, guests too), posts
 * over HTTP. Every message is rendered as text by React, never as HTML.
 */
export default function ChatPanel({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const hasToken = useHasToken();
  const room = useQuery({
    queryKey: ['chat', 'room', hasToken],
    queryFn: () => api.get<TChatRoomResponse>('/api/chat/room', { silent: true }),
    staleTime: 30_000,
  });
  const [lines, setLines] = useState<TLine[]>([]);
  const [text, setText] = useState('');
  const [sending, setSending] = useState(false);
  const list = useRef<HTMLUListElement>(null);

  useEffect(() => {
    const scheme = window.location.protocol === 'https:' ? 'wss:' : 'ws:';
    const socket = new WebSocket(`${scheme}//${window.location.host}/ws`);
    const ping = setInterval(() => socket.readyState === 1 && socket.send('{"type":"ping"}'), 25_000);
    socket.addEventListener('open', () => socket.send(JSON.stringify({ type: 'chat_join' })));
    socket.addEventListener('message', (event) => {
      if (typeof event.data !== 'string') return;
      let push: TChatPush;
      try {
        push = JSON.parse(event.data) as TChatPush;
      } catch {
        return;
      }
      if (push.type === 'chat_history') setLines(push.messages);
      else if (push.type === 'chat_message')
        setLines((old) =>
          [...old.filter((line) => line.id !== push.message.id), push.message].slice(-MAX_MESSAGES),
        );
      else if (push.type === 'chat_delete') setLines((old) => old.filter((line) => line.id !== push.id));
      else if (push.type === 'chat_rain')
        setLines((old) => [
          ...old,
          {
            id: `rain-${push.at}`,
            rain: true as const,
            text: t('community.chat.rain_fell', { share: formatMoney(push.share), count: push.eligible }),
          },
        ]);
    });
    return () => {
      clearInterval(ping);
      socket.close(1000);
    };
  }, [t]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: a new line is the trigger to scroll.
  useEffect(() => {
    list.current?.scrollTo({ top: list.current.scrollHeight });
  }, [lines]);

  const send = async (event: FormEvent) => {
    event.preventDefault();
    if (!text.trim()) return;
    setSending(true);
    try {
      await api.post('/api/chat/send', { text }, { silent: true });
      setText('');
    } catch (error) {
      if (error instanceof ApiError) toast.error(error.message);
    } finally {
      setSending(false);
    }
  };

  const data = room.data;
  const rain = data?.rain;
  return (
    <section className="chat-panel" aria-label={t('community.chat.title')} data-testid="chat-panel">
      <header className="chat-panel__head">
        <h2>{t('community.chat.title')}</h2>
        <button
          type="button"
          className="icon-button"
          onClick={onClose}
          aria-label={t('community.chat.close')}
        >
          <Icon name="close" size={18} />
        </button>
      </header>
      {rain && (
        <p className="chat-panel__rain" data-testid="chat-rain">
          {rain.enabled && rain.next_at
            ? t('community.chat.rain_next', {
                time: formatDateTime(rain.next_at),
                pot: formatMoney(rain.pot),
                minutes: rain.window_minutes,
              })
            : (rain.off_reason ?? t('community.chat.rain_off'))}
          {rain.enabled && rain.next_at && rain.min_wager !== '0.00' && (
            <>
              <br />
              {t('community.chat.rain_rule', { amount: formatMoney(rain.min_wager), days: rain.wager_days })}
            </>
          )}
        </p>
      )}
      <ul className="chat-panel__list" ref={list} aria-live="polite">
        {lines.map((line) =>
          'rain' in line ? (
            <li key={line.id} className="chat-msg chat-msg--rain">
              {line.text}
            </li>
          ) : (
            <li key={line.id} className="chat-msg" data-testid="chat-message">
              <b>{line.author}</b>
              {line.text}
            </li>
          ),
        )}
      </ul>
      {data && !data.enabled ? (
        <p className="chat-panel__note">{t('community.chat.off')}</p>
      ) : !hasToken ? (
        <p className="chat-panel__note">
          <button
            type="button"
            className="button button--primary button--small"
            onClick={() => openModal('login')}
          >
            {t('community.chat.guest')}
          </button>
        </p>
      ) : data?.muted ? (
        <p className="chat-panel__note">{t('community.chat.muted')}</p>
      ) : (
        <form className="chat-panel__form" onSubmit={(event) => void send(event)}>
          <input
            value={text}
            maxLength={data?.max_chars ?? 160}
            placeholder={t('community.chat.placeholder')}
            aria-label={t('community.chat.placeholder')}
            title={t('community.chat.rules', { max: data?.max_chars ?? 160 })}
            onChange={(event) => setText(event.target.value)}
            data-testid="chat-input"
          />
          <button type="submit" className="button button--primary button--small" disabled={sending}>
            {t('community.chat.send')}
          </button>
        </form>
      )}
    </section>
  );
}
