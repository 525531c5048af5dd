import { z } from 'zod';
import { isValidCpf } from './cpf.ts';
import { ZRegistrationLimit } from './responsible-gaming.ts';
import { type TUserInfo, ZUserInfo } from './user.ts';
import { M, ZCaptchaCode, ZPassword, ZPhone, ZQkPwd, ZRealName, ZUsername } from './validation.ts';

/** POST /api/auth/captcha: no body (an empty JSON object is accepted too). */
export const ZCaptchaRequest = z.object({}).nullish();

/** POST /api/auth/captcha → a single-use image challenge. */
export const ZCaptchaResponse = z.object({
  captcha_id: z.string(),
  /** SVG image as a data: URL. */
  image: z.string(),
  expires_in: z.number().int().describe('seconds until the captcha expires'),
  /** False when the site runs with the captcha turned off (tests, local demos): skip the field. */
  required: z.boolean(),
});
export type TCaptchaResponse = z.infer<typeof ZCaptchaResponse>;

const captchaFields = {
  captcha_id: z.string().max(64).optional(),
  captcha_code: ZCaptchaCode.optional(),
};

/** POST /api/auth/register2 */
export const ZRegisterRequest = z
  .object({
    username: ZUsername,
    password: ZPassword,
    /**
     * Optional: the site's form shows the password instead of asking it twice; a client that
     * sends it has it checked against the password.
     */
    password_confirmation: z
      .string({ error: M.required('password_confirmation') })
      .min(1, { error: M.required('password_confirmation') })
      .max(64, { error: M.tooLong })
      .optional(),
    realname: ZRealName,
    phone: ZPhone,
    /** Optional: the 6-digit withdrawal password is set with the first withdrawal (POST /api/drawing). */
    qk_pwd: ZQkPwd.optional(),
    /** The introducer's invite code (optional). */
    invite_code: z
      .string()
      .trim()
      .max(16, { error: M.tooLong })
      .regex(/^[A-Za-z0-9]*$/, { error: M.inviteCodeFormat })
      .optional(),
    agree_terms: z.literal(true, { error: M.termsRequired }),
    /**
     * "I am of age": required where the site does not ask the date of birth; where it does
     * (site data registration.requires_birth_date), the age is computed from birth_date instead.
     */
    is_adult: z.boolean({ error: M.wrongType }).optional(),
    /** Required where site data registration.requires_cpf (br): 11 digits, check digits valid. */
    cpf: z
      .string({ error: M.wrongType })
      .trim()
      .max(20, { error: M.tooLong })
      .refine((cpf) => cpf === '' || isValidCpf(cpf), { error: 'validation.cpf_invalid' })
      .optional(),
    /** YYYY-MM-DD; required where registration.requires_birth_date (br); the site's min_age is enforced. */
    birth_date: z
      .string({ error: M.wrongType })
      .trim()
      .max(10, { error: M.tooLong })
      .refine((date) => date === '' || isCalendarDate(date), { error: 'validation.birth_date_invalid' })
      .optional(),
    /** The limits the site makes mandatory at sign-up (registration.mandatory_limits; br: loss and time). */
    limits: z.array(ZRegistrationLimit).max(12, { error: M.tooLong }).optional(),
    /**
     * "Keep me signed in" on this device: the answer also sets an httpOnly refresh cookie that
     * POST /api/auth/refresh trades for a new bearer token after the tab was closed.
     */
    remember: z.boolean({ error: M.wrongType }).optional(),
    ...captchaFields,
  })
  .refine(
    (body) => body.password_confirmation === undefined || body.password === body.password_confirmation,
    {
      path: ['password_confirmation'],
      error: M.passwordsMismatch,
    },
  );
export type TRegisterRequest = z.infer<typeof ZRegisterRequest>;

/** A real day written YYYY-MM-DD (no 2001-02-30). */
export function isCalendarDate(text: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return (
    year >= 1900 &&
    date.getUTCFullYear() === year &&
    date.getUTCMonth() === month - 1 &&
    date.getUTCDate() === day
  );
}

/** Whole years between a YYYY-MM-DD birth date and `today` (YYYY-MM-DD, the site's calendar day). */
export function ageOn(birthDate: string, today: string): number {
  const [by, bm, bd] = birthDate.split('-').map(Number) as [number, number, number];
  const [ty, tm, td] = today.split('-').map(Number) as [number, number, number];
  return ty - by - (tm < bm || (tm === bm && td < bd) ? 1 : 0);
}

/** POST /api/auth/login2 */
export const ZLoginRequest = z.object({
  username: z
    .string({ error: M.required('username') })
    .trim()
    .min(1, { error: M.required('username') })
    .max(20, { error: M.tooLong }),
  password: z
    .string({ error: M.required('password') })
    .min(1, { error: M.required('password') })
    .max(64, { error: M.tooLong }),
  /** The authenticator (or recovery) code, when the account has two-factor authentication on. */
  totp_code: z
    .string({ error: M.wrongType })
    .trim()
    .max(16, { error: M.tooLong })
    .regex(/^(\d{6}|[a-z0-9]{4}-[a-z0-9]{4})$/i, { error: 'validation.code_format' })
    .optional(),
  /**
   * "Keep me signed in" on this device: the answer also sets an httpOnly refresh cookie that
   * POST /api/auth/refresh trades for a new bearer token after the tab was closed.
   */
  remember: z.boolean({ error: M.wrongType }).optional(),
  ...captchaFields,
});
export type TLoginRequest = z.infer<typeof ZLoginRequest>;

/** Successful register2 / login2. The token is a bearer token; keep it in sessionStorage. */
export const ZSessionResponse = z.object({
  token: z.string(),
  token_type: z.literal('Bearer'),
  expires_at: z.string().describe('ISO 8601'),
  user: ZUserInfo,
  /**
   * The member's login before this one (time and address), shown after login so a player notices
   * a login that was not theirs (Pennsylvania 58 Pa. Code §814a.1); null on the first.
   */
  previous_login: z.object({ at: z.string().describe('ISO 8601'), ip: z.string().nullable() }).nullable(),
});
export type TSessionResponse = z.infer<typeof ZSessionResponse>;

/** POST /api/auth/register2 → logged in straight away. */
export const ZRegisterResponse = ZSessionResponse;
export type TRegisterResponse = TSessionResponse;
/** POST /api/auth/login2 */
export const ZLoginResponse = ZSessionResponse;
export type TLoginResponse = TSessionResponse;

/**
 * POST /api/auth/refresh: no body; the httpOnly refresh cookie names the device. Answers a new
 * session (as login2) and rotates the cookie; 401 (and the cookie cleared) when it is missing,
 * expired, revoked or was already used.
 */
export const ZRefreshRequest = z.object({}).nullish();
export const ZRefreshResponse = ZSessionResponse;
export type TRefreshResponse = TSessionResponse;

/** POST /api/auth/me: no body; the bearer token names the member. */
export const ZMeRequest = z.object({}).nullish();
export const ZMeResponse = ZUserInfo;
export type TMeResponse = TUserInfo;

/** POST /api/auth/logout: ends the calling session (no body). */
export const ZLogoutRequest = z.object({}).nullish();
export const ZLogoutResponse = z.null();
