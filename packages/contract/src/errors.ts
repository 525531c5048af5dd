/**
 * Stable machine codes carried in `code` of a failed envelope, with the HTTP status each maps to.
 * The message shown to people is the translation of `errors.<CODE>` in `messages`.
 */
export const ERROR_CODES = {
  /** The body or query did not match the endpoint's schema; `errors` lists the fields. */
  VALIDATION_FAILED: 422,
  /** A syntactically broken request (bad JSON, wrong content type, body too large). */
  BAD_REQUEST: 400,
  /** No session, or it expired or was ended. */
  UNAUTHENTICATED: 401,
  /** The session is valid but the caller may not do this (e.g. another member's id). */
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  /** The Host header names no site we serve. */
  UNKNOWN_SITE: 404,
  /** Captcha missing, wrong, expired or already used: ask for a new one. */
  CAPTCHA_INVALID: 400,
  USERNAME_TAKEN: 409,
  /** Username or password wrong (never says which). */
  INVALID_CREDENTIALS: 401,
  /** Too many failed logins for this account or address; retry later. */
  TOO_MANY_ATTEMPTS: 429,
  /** General request rate limit. */
  RATE_LIMITED: 429,
  /** The introducer / invite code names nobody on this site. */
  INVITE_CODE_UNKNOWN: 422,
  ACCOUNT_DISABLED: 403,
  /** Same idempotency key, different request. */
  IDEMPOTENCY_CONFLICT: 409,
  INSUFFICIENT_FUNDS: 409,
  /** Anything we did not expect; details are only in the server log. */
  INTERNAL: 500,
} as const;

export type TErrorCode = keyof typeof ERROR_CODES;
