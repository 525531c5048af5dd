import { z } from 'zod';
import { M, requiredString } from './validation.ts';

/** POST /api/admin/auth/login: an operator of the request's site signs in (no captcha; rate limited). */
export const ZAdminLoginRequest = z.object({
  username: requiredString('username', 40),
  password: z
    .string({ error: (issue) => (issue.input === undefined ? M.required('password') : M.wrongType) })
    .min(1, { error: M.required('password') })
    .max(128, { error: M.tooLong }),
});
export type TAdminLoginRequest = z.infer<typeof ZAdminLoginRequest>;

export const ZOperator = z.object({
  id: z.number().int(),
  username: z.string(),
  role: z.enum(['admin', 'support']),
  site: z.string().describe('site code'),
});
export type TOperator = z.infer<typeof ZOperator>;

/** An operator bearer token: only valid on /api/admin routes of the same site, never as a player token. */
export const ZAdminLoginResponse = z.object({
  token: z.string(),
  token_type: z.literal('Bearer'),
  expires_at: z.string().describe('ISO 8601'),
  operator: ZOperator,
});
export type TAdminLoginResponse = z.infer<typeof ZAdminLoginResponse>;

/** POST /api/admin/members/force-offline: end every session of a player of the operator's site. */
export const ZForceOfflineRequest = z.object({ username: requiredString('username', 20) });
export type TForceOfflineRequest = z.infer<typeof ZForceOfflineRequest>;
export const ZForceOfflineResponse = z.object({
  member_id: z.number().int(),
  sessions_ended: z.number().int().describe('how many active sessions were ended'),
});
export type TForceOfflineResponse = z.infer<typeof ZForceOfflineResponse>;
