import { type TLanguage, type TSuccess, translate, ZFail, ZSuccess } from '@sorte/contract';
import type { z } from 'zod';

/** The success envelope, with `message` translated into the request's language. */
export function ok<T>(lang: TLanguage, data: T, messageKey = 'messages.ok'): TSuccess<T> {
  return { status: 'success', code: 200, message: translate(lang, messageKey), data };
}

/** Route response schemas: the success envelope around `data`, and the fail envelope for errors. */
export function responses<T extends z.ZodType>(data: T) {
  return { 200: ZSuccess(data), '4xx': ZFail, '5xx': ZFail };
}
