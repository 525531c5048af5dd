import { type TLanguage, type TSuccess, translate } from '@sorte/contract';

/** The success envelope, with `message` translated into the request's language. */
export function ok<T>(lang: TLanguage, data: T, messageKey = 'messages.ok'): TSuccess<T> {
  return { status: 'success', code: 200, message: translate(lang, messageKey), data };
}
