import type { TNotification } from '@sorte/contract';
import type { TFunction } from 'i18next';
import { formatMoney } from '../../../lib/format.ts';

/** A notification in the reader's language, amounts as they write money (R$ 25,00 in pt). */
export function notificationText(t: TFunction, notification: Pick<TNotification, 'kind' | 'params'>): string {
  const params = { ...notification.params };
  if (params.amount) params.amount = formatMoney(params.amount);
  return t(`community.notice.${notification.kind}`, params);
}
