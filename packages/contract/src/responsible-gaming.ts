import { z } from 'zod';
import { M } from './validation.ts';

/** Responsible gaming (issue 13): limits, reality check, pauses and self-exclusion. */

export const RG_LIMIT_KINDS = ['deposit', 'loss', 'stake', 'session_time'] as const;
export type TRgLimitKind = (typeof RG_LIMIT_KINDS)[number];
export const RG_PERIODS = ['day', 'week', 'month'] as const;
export type TRgPeriod = (typeof RG_PERIODS)[number];
/** Pause lengths offered, in days. */
export const COOLING_OFF_DAYS = [1, 7, 30] as const;
/** Self-exclusion lengths offered, in months (0 = indefinite). */
export const SELF_EXCLUSION_MONTHS = [1, 3, 6, 12, 0] as const;
/** The largest session-time limit, in minutes, per period. */
export const MAX_TIME_LIMIT_MINUTES: Record<TRgPeriod, number> = { day: 1440, week: 10_080, month: 44_640 };

/** The player's limit as it stands: its value now and a looser value waiting for its time. */
export const ZRgLimit = z.object({
  kind: z.enum(RG_LIMIT_KINDS),
  period: z.enum(RG_PERIODS),
  /** Money limits: decimal string (BRL); session_time: minutes as a string. Null: no limit now. */
  value: z.string().nullable(),
  /** How much of it this period has used (money or minutes), and when the period resets. */
  used: z.string(),
  resets_at: z.string(),
  pending_value: z.string().nullable(),
  pending_remove: z.boolean(),
  pending_effective_at: z.string().nullable(),
});
export type TRgLimit = z.infer<typeof ZRgLimit>;

export const ZRgExclusion = z.object({
  kind: z.enum(['cooling_off', 'self_exclusion', 'registry']),
  starts_at: z.string(),
  ends_at: z.string().nullable(),
});
export type TRgExclusion = z.infer<typeof ZRgExclusion>;

/** What the site's jurisdiction demands (data of the site's profile). */
export const ZRgProfile = z.object({
  mandatory_limits: z.array(z.enum(RG_LIMIT_KINDS)),
  loosen_delay_hours: z.number().int(),
  requires_cpf: z.boolean(),
  requires_birth_date: z.boolean(),
  shows_risk_message: z.boolean(),
  self_exclusion_registry: z.boolean(),
});
export type TRgProfile = z.infer<typeof ZRgProfile>;

/** GET /api/responsible-gaming */
export const ZRgStatus = z.object({
  limits: z.array(ZRgLimit),
  reality_check_minutes: z.number().int(),
  exclusion: ZRgExclusion.nullable(),
  profile: ZRgProfile,
});
export type TRgStatus = z.infer<typeof ZRgStatus>;

/** A money amount ("100", "100.50") or a number of minutes; null removes the limit. */
const ZLimitValue = z
  .string({ error: M.wrongType })
  .trim()
  .regex(/^\d{1,11}(\.\d{1,2})?$/, { error: 'validation.amount_invalid' })
  .nullable();

/** POST /api/responsible-gaming/limits: set, tighten, loosen or remove one limit. */
export const ZSetRgLimitRequest = z.object({
  kind: z.enum(RG_LIMIT_KINDS, { error: M.wrongType }),
  period: z.enum(RG_PERIODS, { error: M.wrongType }),
  value: ZLimitValue,
});
export type TSetRgLimitRequest = z.infer<typeof ZSetRgLimitRequest>;
/** Limits at registration (br: loss and time are mandatory). */
export const ZRegistrationLimit = z.object({
  kind: z.enum(RG_LIMIT_KINDS, { error: M.wrongType }),
  period: z.enum(RG_PERIODS, { error: M.wrongType }),
  value: z
    .string({ error: M.wrongType })
    .trim()
    .regex(/^\d{1,11}(\.\d{1,2})?$/, { error: 'validation.amount_invalid' }),
});
export type TRegistrationLimit = z.infer<typeof ZRegistrationLimit>;

/** POST /api/responsible-gaming/reality-check: minutes between reminders (0 = off). */
export const ZSetRealityCheckRequest = z.object({
  minutes: z.coerce.number({ error: M.wrongType }).int({ error: M.wrongType }).min(0).max(1440),
});

/** POST /api/responsible-gaming/cooling-off */
export const ZCoolingOffRequest = z.object({
  days: z.coerce
    .number({ error: M.wrongType })
    .int({ error: M.wrongType })
    .refine((d) => (COOLING_OFF_DAYS as readonly number[]).includes(d), { error: M.wrongType }),
  password: z
    .string({ error: M.required('password') })
    .min(1, { error: M.required('password') })
    .max(64),
});
/** POST /api/responsible-gaming/self-exclusion (months 0 = indefinite). */
export const ZSelfExclusionRequest = z.object({
  months: z.coerce
    .number({ error: M.wrongType })
    .int({ error: M.wrongType })
    .refine((m) => (SELF_EXCLUSION_MONTHS as readonly number[]).includes(m), { error: M.wrongType }),
  password: z
    .string({ error: M.required('password') })
    .min(1, { error: M.required('password') })
    .max(64),
});

/** Pushed over the live socket every reality-check interval. */
export const ZRealityCheck = z.object({
  type: z.literal('reality_check'),
  minutes_played: z.number().int(),
  /** Net result of the session so far (wins minus stakes), decimal string; negative is a loss. */
  net_result: z.string(),
  staked: z.string(),
});
export type TRealityCheck = z.infer<typeof ZRealityCheck>;
