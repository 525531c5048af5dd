import { z } from 'zod';

/**
 * Every response body is this envelope. Success: `status: "success"`, `code: 200`. Failure:
 * `status: "fail"`, `code` is a stable machine code from `ERROR_CODES` (the client branches on it),
 * `message` is translated into the request's `lang`.
 */
export const ZSuccess = <T extends z.ZodType>(data: T) =>
  z.object({
    status: z.literal('success'),
    code: z.literal(200),
    message: z.string(),
    data,
  });

export const ZFail = z.object({
  status: z.literal('fail'),
  code: z.string(),
  message: z.string(),
  data: z.unknown().nullable(),
  /** Present on 401 when an operator ended the player's sessions. */
  force_offline: z.boolean().optional(),
  /** On SESSION_IDLE: the idle minutes after which the site's profile ends a session. */
  idle_minutes: z.number().int().optional(),
  /** Seconds to wait, on TOO_MANY_ATTEMPTS (also sent as the Retry-After header). */
  retry_after: z.number().int().optional(),
  /** Field-level validation messages, translated, keyed by field name. */
  errors: z.record(z.string(), z.string()).optional(),
  /**
   * On a login refused by a pause or self-exclusion (COOLING_OFF, SELF_EXCLUDED): a session that
   * reaches only the balance and withdrawal pages, so the player can still take the money out.
   */
  withdrawal_session: z.object({ token: z.string(), expires_at: z.string() }).optional(),
  /** On a responsible-gaming limit refusal: which limit and when its period resets. */
  limit: z.object({ kind: z.string(), period: z.string(), resets_at: z.string() }).optional(),
  /** On KYC_REQUIRED: the action refused and the checks still to pass (cpf, identity). */
  kyc: z.object({ action: z.string(), missing_checks: z.array(z.string()) }).optional(),
});
export type TFail = z.infer<typeof ZFail>;

export type TSuccess<T> = { status: 'success'; code: 200; message: string; data: T };
export type TEnvelope<T> = TSuccess<T> | TFail;
