import { z } from 'zod';
import { M, PASSWORD_MAX, ZPassword, ZQkPwd } from './validation.ts';

/** Security centre (issue 13): login and withdrawal passwords, email, two-factor, sessions, events. */

/** Minutes a re-entered login password (/verify-password) authorises a withdrawal-password change. */
export const PASSWORD_VERIFY_MINUTES = 10;
/** Digits of an emailed code and of a TOTP code. */
export const EMAIL_CODE_LENGTH = 6;
export const EMAIL_CODE_MINUTES = 15;

const anyPassword = (field: string) =>
  z
    .string({ error: (issue) => (issue.input === undefined ? M.required(field) : M.wrongType) })
    .min(1, { error: M.required(field) })
    .max(PASSWORD_MAX, { error: M.tooLong });

/** A 6-digit code (email or authenticator), or a recovery code (xxxx-xxxx) where allowed. */
export const ZOneTimeCode = z
  .string({ error: (issue) => (issue.input === undefined ? M.required('code') : M.wrongType) })
  .trim()
  .min(1, { error: M.required('code') })
  .max(16, { error: M.tooLong })
  .regex(/^(\d{6}|[a-z0-9]{4}-[a-z0-9]{4})$/i, { error: 'validation.code_format' });

export const ZEmail = z
  .string({ error: (issue) => (issue.input === undefined ? M.required('email') : M.wrongType) })
  .trim()
  .min(1, { error: M.required('email') })
  .max(254, { error: M.tooLong })
  .pipe(z.email({ error: 'validation.email_invalid' }))
  .transform((value) => value.toLowerCase());

/** POST /api/security/password: change the login password; every other session ends. */
export const ZChangePasswordRequest = z
  .object({
    old_password: anyPassword('old_password'),
    new_password: ZPassword,
    new_password_confirmation: anyPassword('password_confirmation'),
  })
  .refine((body) => body.new_password === body.new_password_confirmation, {
    path: ['new_password_confirmation'],
    error: 'validation.passwords_did_not_match',
  })
  .refine((body) => body.new_password !== body.old_password, {
    path: ['new_password'],
    error: M.newPasswordSame,
  });
export type TChangePasswordRequest = z.infer<typeof ZChangePasswordRequest>;

/** POST /api/security/verify-password: re-enter the login password before a sensitive change. */
export const ZVerifyPasswordRequest = z.object({ password: anyPassword('password') });
export const ZVerifyPasswordResponse = z.object({ verified_until: z.string().describe('ISO 8601') });

/** POST /api/security/withdraw-password: set or change the 6-digit withdrawal password. */
export const ZSetWithdrawPasswordRequest = z
  .object({
    qk_pwd: ZQkPwd,
    qk_pwd_confirmation: anyPassword('qk_pwd'),
    /** Required when two-factor authentication is on. */
    totp_code: ZOneTimeCode.optional(),
  })
  .refine((body) => body.qk_pwd === body.qk_pwd_confirmation, {
    path: ['qk_pwd_confirmation'],
    error: 'validation.passwords_did_not_match',
  });
export type TSetWithdrawPasswordRequest = z.infer<typeof ZSetWithdrawPasswordRequest>;

/** GET /api/security/overview */
export const ZSecurityOverview = z.object({
  has_qk_pwd: z.boolean(),
  email: z.string().nullable(),
  email_verified: z.boolean(),
  totp_enabled: z.boolean(),
  recovery_codes_left: z.number().int(),
  password_changed_at: z.string().nullable(),
  /** The login before the current one (time and address), so a player spots one that was not theirs. */
  last_login: z.object({ at: z.string(), ip: z.string().nullable() }).nullable(),
  current_login: z.object({ at: z.string(), ip: z.string().nullable() }),
  password_verified_until: z.string().nullable(),
});
export type TSecurityOverview = z.infer<typeof ZSecurityOverview>;

export const ZSessionView = z.object({
  id: z.number().int(),
  created_at: z.string(),
  last_seen_at: z.string(),
  ip: z.string().nullable(),
  user_agent: z.string().nullable(),
  current: z.boolean(),
});
export type TSessionView = z.infer<typeof ZSessionView>;
/** GET /api/security/sessions: every active session (device) of the player. */
export const ZSessionsResponse = z.object({ list: z.array(ZSessionView) });
export type TSessionsResponse = z.infer<typeof ZSessionsResponse>;
/** POST /api/security/sessions/end */
export const ZEndSessionRequest = z.object({
  session_id: z.coerce
    .number({ error: M.wrongType })
    .int({ error: M.wrongType })
    .positive({ error: M.wrongType })
    .max(Number.MAX_SAFE_INTEGER, { error: M.wrongType }),
});

export const SECURITY_EVENT_KINDS = [
  'login',
  'login_failed_totp',
  'password_changed',
  'password_reset',
  'password_verified',
  'withdraw_password_set',
  'withdraw_password_changed',
  'email_bound',
  'totp_enabled',
  'totp_disabled',
  'recovery_code_used',
  'session_ended',
  'limit_changed',
  'cooling_off',
  'self_exclusion',
  'registry_impeded',
  'terms_accepted',
] as const;
export type TSecurityEventKind = (typeof SECURITY_EVENT_KINDS)[number];
export const ZSecurityEvent = z.object({
  id: z.number().int(),
  kind: z.enum(SECURITY_EVENT_KINDS),
  ip: z.string().nullable(),
  user_agent: z.string().nullable(),
  created_at: z.string(),
});
export type TSecurityEvent = z.infer<typeof ZSecurityEvent>;
/** GET /api/security/events: the latest security events, newest first. */
export const ZSecurityEventsResponse = z.object({ list: z.array(ZSecurityEvent) });
export type TSecurityEventsResponse = z.infer<typeof ZSecurityEventsResponse>;

/** POST /api/security/email/code: send a confirmation code to this address. */
export const ZEmailCodeRequest = z.object({ email: ZEmail });
/** POST /api/security/email/bind */
export const ZBindEmailRequest = z.object({ email: ZEmail, code: ZOneTimeCode });

/** POST /api/auth/password/forgot: emails a reset code when the account has a confirmed email. */
export const ZForgotPasswordRequest = z.object({
  username: z
    .string({ error: M.required('username') })
    .trim()
    .min(1, { error: M.required('username') })
    .max(20, { error: M.tooLong }),
  captcha_id: z.string().max(64).optional(),
  captcha_code: z.string().max(8).optional(),
});
export type TForgotPasswordRequest = z.infer<typeof ZForgotPasswordRequest>;
/** POST /api/auth/password/reset */
export const ZResetPasswordRequest = z
  .object({
    username: ZForgotPasswordRequest.shape.username,
    code: ZOneTimeCode,
    new_password: ZPassword,
    new_password_confirmation: anyPassword('password_confirmation'),
  })
  .refine((body) => body.new_password === body.new_password_confirmation, {
    path: ['new_password_confirmation'],
    error: 'validation.passwords_did_not_match',
  });
export type TResetPasswordRequest = z.infer<typeof ZResetPasswordRequest>;

/** POST /api/security/totp/setup: a new secret to scan (not on until confirmed). */
export const ZTotpSetupResponse = z.object({
  secret: z.string(),
  otpauth_url: z.string(),
  qr: z.string().describe('SVG image as a data: URL'),
});
export type TTotpSetupResponse = z.infer<typeof ZTotpSetupResponse>;
/** POST /api/security/totp/enable: confirm with a first code; answers the recovery codes (shown once). */
export const ZTotpEnableRequest = z.object({ code: ZOneTimeCode });
export const ZTotpEnableResponse = z.object({ recovery_codes: z.array(z.string()) });
/** POST /api/security/totp/disable: the login password and a current code (or a recovery code). */
export const ZTotpDisableRequest = z.object({ password: anyPassword('password'), code: ZOneTimeCode });
