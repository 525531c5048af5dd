import { isValidPhoneNumber } from 'libphonenumber-js/min';
import { z } from 'zod';

/**
 * Schema messages are i18n keys, not prose: the server translates them into the request's `lang`
 * and the web app translates them with the same catalogue (`messages`), so the text a player sees
 * is the same whichever side caught the mistake.
 */
export const M = {
  required: (field: string) => `validation.required.${field}`,
  passwordMin: 'validation.password_min',
  passwordMax: 'validation.too_long',
  passwordsMismatch: 'validation.passwords_mismatch',
  newPasswordSame: 'validation.new_password_same',
  qkPwdFormat: 'validation.qk_pwd_format',
  phoneInvalid: 'validation.phone_invalid',
  usernameFormat: 'validation.username_format',
  realnameFormat: 'validation.realname_format',
  termsRequired: 'validation.terms_required',
  adultRequired: 'validation.adult_required',
  tooLong: 'validation.too_long',
  wrongType: 'validation.wrong_type',
  captchaFormat: 'validation.captcha_format',
  inviteCodeFormat: 'validation.invite_code_format',
} as const;

export const PASSWORD_MIN = 6;
export const PASSWORD_MAX = 64;

/** A required string: missing, non-string and blank all give the field's "required" message. */
export const requiredString = (field: string, max = 200) =>
  z
    .string({ error: (issue) => (issue.input === undefined ? M.required(field) : M.wrongType) })
    .trim()
    .min(1, { error: M.required(field) })
    .max(max, { error: M.tooLong });

export const ZUsername = requiredString('username', 20).regex(/^[A-Za-z0-9_]{4,20}$/, {
  error: M.usernameFormat,
});

export const ZPassword = z
  .string({ error: (issue) => (issue.input === undefined ? M.required('password') : M.wrongType) })
  .min(1, { error: M.required('password') })
  .min(PASSWORD_MIN, { error: M.passwordMin })
  .max(PASSWORD_MAX, { error: M.passwordMax });

/** The withdrawal password: exactly six digits. */
export const ZQkPwd = z
  .string({ error: (issue) => (issue.input === undefined ? M.required('qk_pwd') : M.wrongType) })
  .min(1, { error: M.required('qk_pwd') })
  .regex(/^\d{6}$/, { error: M.qkPwdFormat });

/** A mobile number, national (Brazil by default) or international with "+". */
export const ZPhone = requiredString('phone', 20).refine(
  (value) => /^\+?[0-9 ()-]{8,20}$/.test(value) && isValidPhoneNumber(value, 'BR'),
  { error: M.phoneInvalid },
);

export const ZRealName = requiredString('realname', 60).regex(/^[\p{L}\p{M}' .-]{2,60}$/u, {
  error: M.realnameFormat,
});

export const ZCaptchaCode = requiredString('captcha_code', 8);

/**
 * Text the database can store. PostgreSQL refuses U+0000 in `text` and `jsonb`, so a NUL anywhere
 * in a request is a client error, refused before any handler runs ('Please enter the correct
 * parameters'). This is the one rule for every string of every request: bodies (keys included),
 * queries, path parameters and socket messages.
 */
export function isStorableText(value: string): boolean {
  return !value.includes('\u0000');
}

/**
 * The path ("username", "items.0.name", "" for the value itself) of the first string or object key
 * that is not storable text, or null when all are. Iterative, so a deeply nested body cannot
 * exhaust the stack.
 */
export function findUnstorableText(value: unknown): string | null {
  const pending: [unknown, string][] = [[value, '']];
  while (pending.length > 0) {
    const [item, path] = pending.pop()!;
    if (typeof item === 'string') {
      if (!isStorableText(item)) return path;
      continue;
    }
    if (item === null || typeof item !== 'object' || ArrayBuffer.isView(item)) continue;
    for (const [key, child] of Object.entries(item)) {
      if (!isStorableText(key)) return path;
      pending.push([child, path ? `${path}.${key}` : key]);
    }
  }
  return null;
}
