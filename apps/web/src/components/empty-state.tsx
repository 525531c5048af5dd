import { Icon, type TIconName } from './icon.tsx';

export function EmptyState({ message, icon = 'list' }: { message: string; icon?: TIconName }) {
  return (
    <div className="empty-state" role="status">
      <span className="empty-state__icon">
        <Icon name={icon} size={30} />
      </span>
      <p>{message}</p>
    </div>
  );
}
