import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../../components/empty-state.tsx';
import { Icon } from '../../../components/icon.tsx';
import { socialNetworkName } from '../../../lib/social-names.ts';
import { useSupport } from '../api/information.ts';
import './information.css';

/** The support page's channels: the site's Telegram, its other social links and the in-app chat. */
export function SupportChannels() {
  const { t } = useTranslation();
  const support = useSupport();
  const data = support.data;
  if (!data) return null;
  const others = data.channels.filter((channel) => channel.url !== data.telegramLink);
  const telegram = data.channels.find((channel) => channel.url === data.telegramLink);
  if (!data.telegramLink && others.length === 0 && !data.support_chat.room && !data.support_chat.url) {
    return <EmptyState message={t('community.info.no_channels')} icon="headset" />;
  }
  return (
    <ul className="channel-list" data-testid="support-channels">
      {data.telegramLink && (
        <li>
          <a className="channel" href={data.telegramLink} target="_blank" rel="noopener noreferrer">
            {telegram && <img src={telegram.icon} alt="" />}
            <span>{t('community.info.telegram')}</span>
          </a>
        </li>
      )}
      {others.map((channel) => (
        <li key={channel.name}>
          <a className="channel" href={channel.url} target="_blank" rel="noopener noreferrer">
            <img src={channel.icon} alt="" />
            <span>{socialNetworkName(channel.name)}</span>
          </a>
        </li>
      ))}
      {(data.support_chat.room || data.support_chat.url) && (
        <li>
          {data.support_chat.url ? (
            <a className="channel" href={data.support_chat.url} target="_blank" rel="noopener noreferrer">
              <Icon name="headset" />
              <span>{t('community.info.support_chat')}</span>
            </a>
          ) : (
            <button
              type="button"
              className="channel"
              data-testid="open-support-chat"
              onClick={() => window.dispatchEvent(new CustomEvent('sorte:open-chat'))}
            >
              <Icon name="headset" />
              <span>{t('community.info.support_chat')}</span>
            </button>
          )}
        </li>
      )}
    </ul>
  );
}
