import { z } from 'zod';
import { ZOneTimeCode } from './security.ts';
import { M, requiredString, ZUsername } from './validation.ts';

/** Back-office roles; what each may do is ROLE_PERMISSIONS (checked on every /api/admin call). */
export const OPERATOR_ROLES = ['owner', 'finance', 'support', 'content', 'compliance'] as const;
export type TOperatorRole = (typeof OPERATOR_ROLES)[number];

/** Every permission an /api/admin route can require. */
export const OPERATOR_PERMISSIONS = [
  'dashboard.read',
  'players.read',
  /** force offline, freeze, notes */
  'players.manage',
  'balance.adjust',
  'withdrawals.read',
  'withdrawals.review',
  /** reconciliation and money reports */
  'finance.reports',
  'sites.manage',
  'games.manage',
  'promotions.manage',
  'agency.manage',
  /** announcements, notifications, terms */
  'content.manage',
  'chat.moderate',
  'fairness.read',
  'mail.read',
  'audit.read',
  /** walk the audit log's hash chain (owner only: it reads every entry of the site) */
  'audit.verify',
  /**
   * full CPF, e-mail and phone of players (LGPD data minimisation): without it player lists,
   * details, the withdrawal queue and their CSV exports show them masked. Held by the roles whose
   * work needs to identify or contact a player (owner; finance: payouts to the player's own CPF,
   * duplicate-CPF checks; support: answering the player), not by content.
   */
  'players.pii',
  /**
   * identity documents (KYC): open the images a provider sent for manual review, and approve or
   * reject the session. Owner and support (support answers the player about their verification);
   * without it the verification queue is readable with players.read, PII masked as above.
   */
  'kyc.documents',
  'operators.manage',
  /** AML alerts, cases with the player's timeline, COAF files and yearly exports (ADR 040) */
  'compliance.read',
  /** assign, note, hold, decide a case (close or report to COAF), make the yearly files */
  'compliance.manage',
] as const;
export type TPermission = (typeof OPERATOR_PERMISSIONS)[number];

export const ROLE_PERMISSIONS: Record<TOperatorRole, readonly TPermission[]> = {
  owner: OPERATOR_PERMISSIONS,
  finance: [
    'dashboard.read',
    'players.read',
    'withdrawals.read',
    'withdrawals.review',
    'balance.adjust',
    'finance.reports',
    'agency.manage',
    'audit.read',
    'fairness.read',
    'players.pii',
  ],
  support: [
    'dashboard.read',
    'players.read',
    'players.pii',
    'players.manage',
    'withdrawals.read',
    'chat.moderate',
    'mail.read',
    'fairness.read',
    'kyc.documents',
  ],
  // content finds players to message one of them or to moderate their chat, so it reads players,
  // but never with their CPF, e-mail or phone in full (no players.pii: ADR 022).
  content: [
    'dashboard.read',
    'players.read',
    'games.manage',
    'promotions.manage',
    'content.manage',
    'chat.moderate',
  ],
  // compliance (ADR 040) analyses suspicious activity and reports it to COAF: it must identify the
  // player (players.pii) and read their record, and its work stays out of the other roles' sight.
  compliance: [
    'dashboard.read',
    'players.read',
    'players.pii',
    'withdrawals.read',
    'audit.read',
    'compliance.read',
    'compliance.manage',
  ],
};

/** Whether an operator of this role may do this. */
export function roleCan(role: TOperatorRole, permission: TPermission): boolean {
  return ROLE_PERMISSIONS[role].includes(permission);
}

const ZTotpCode = z
  .string({ error: (issue) => (issue.input === undefined ? M.required('code') : M.wrongType) })
  .trim()
  .min(1, { error: M.required('code') })
  .max(16, { error: M.tooLong })
  .regex(/^\d{6}$/, { error: 'validation.code_format' });

const ZOperatorPassword = z
  .string({ error: (issue) => (issue.input === undefined ? M.required('password') : M.wrongType) })
  .min(1, { error: M.required('password') })
  .max(128, { error: M.tooLong });

/**
 * POST /api/admin/auth/login: an operator of the request's site signs in with the password and the
 * current authenticator code (TOTP is required for every operator; no captcha; rate limited).
 */
export const ZAdminLoginRequest = z.object({
  username: requiredString('username', 40),
  password: ZOperatorPassword,
  totp_code: ZOneTimeCode.describe(
    'the 6-digit code of the authenticator app, or an unused recovery code (xxxx-xxxx)',
  ),
});
export type TAdminLoginRequest = z.infer<typeof ZAdminLoginRequest>;

/**
 * POST /api/admin/auth/recovery-codes: a new set of one-time recovery codes for the calling operator
 * (shown once; the previous set's unused codes stop working), confirmed with a current authenticator code.
 */
export const ZAdminRecoveryCodesRequest = z.object({ totp_code: ZTotpCode });
export const ZAdminRecoveryCodesResponse = z.object({ codes: z.array(z.string()) });
export type TAdminRecoveryCodesResponse = z.infer<typeof ZAdminRecoveryCodesResponse>;

export const ZOperator = z.object({
  id: z.number().int(),
  username: z.string(),
  role: z.enum(OPERATOR_ROLES),
  site: z.string().describe('site code'),
  permissions: z.array(z.enum(OPERATOR_PERMISSIONS)).describe("what this operator's role may do"),
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

/** GET /api/admin/auth/me: the calling operator (and the site the back office is on). */
export const ZAdminMeResponse = z.object({
  operator: ZOperator,
  site: z.object({ code: z.string(), name: z.string(), jurisdiction: z.string() }),
});
export type TAdminMeResponse = z.infer<typeof ZAdminMeResponse>;

/** GET /api/admin/setup?token=: whether a one-time setup link is still good (first start, no owner yet). */
export const ZAdminSetupQuery = z.object({
  lang: z.string().max(16).optional(),
  token: z.string().trim().min(1).max(128),
});
export const ZAdminSetupInfo = z.object({
  site: z.string(),
  totp_secret: z.string().describe('base32 secret to add to the authenticator app'),
  otpauth_uri: z.string(),
  qr_code: z.string().describe('data: URL of the QR code of otpauth_uri'),
});
export type TAdminSetupInfo = z.infer<typeof ZAdminSetupInfo>;

/** Operator passwords are longer than players' (they open money and personal data). */
export const OPERATOR_PASSWORD_MIN = 10;

/** POST /api/admin/setup: the first owner sets username, password and proves the authenticator. */
export const ZAdminSetupRequest = z.object({
  token: z.string().trim().min(1).max(128),
  username: ZUsername,
  password: z
    .string({ error: (issue) => (issue.input === undefined ? M.required('password') : M.wrongType) })
    .min(OPERATOR_PASSWORD_MIN, { error: 'validation.operator_password_min' })
    .max(128, { error: M.tooLong }),
  totp_code: ZTotpCode,
});
export type TAdminSetupRequest = z.infer<typeof ZAdminSetupRequest>;

/** One page of an admin list: server-side paging (page 1-based) with the total for the pager. */
export function ZAdminPage<T extends z.ZodType>(item: T) {
  return z.object({
    list: z.array(item),
    total: z.number().int(),
    page: z.number().int(),
    page_size: z.number().int(),
  });
}

/** Query of a server-paged admin list: ?page=&page_size=&format=csv (CSV: every row, no paging). */
export const ZAdminPageQuery = z.object({
  lang: z.string().max(16).optional(),
  page: z.coerce.number().int().min(1).max(100000).optional(),
  page_size: z.coerce.number().int().min(1).max(200).optional(),
  format: z.enum(['json', 'csv']).optional(),
});
export type TAdminPageQuery = z.infer<typeof ZAdminPageQuery>;

/** An operator account as the owner manages it. */
export const ZOperatorAccount = z.object({
  id: z.number().int(),
  username: z.string(),
  role: z.enum(OPERATOR_ROLES),
  status: z.number().int().describe('1 active, 0 disabled'),
  created_at: z.string(),
  last_login_at: z.string().nullable(),
});
export type TOperatorAccount = z.infer<typeof ZOperatorAccount>;

/** Risk signals shown beside a withdrawal under review. */
export const WITHDRAWAL_RISKS = ['new_account', 'bonus_not_wagered', 'same_cpf', 'many_cards'] as const;
export type TWithdrawalRisk = (typeof WITHDRAWAL_RISKS)[number];

/** GET /api/admin/withdrawals/queue: server-paged review queue (status, player search), CSV too. */
export const ZAdminWithdrawalQueueQuery = ZAdminPageQuery.extend({
  status: z
    .enum(['pending_review', 'approved', 'paying', 'paid', 'rejected', 'failed', 'cancelled'])
    .optional(),
  username: z.string().trim().max(40).optional(),
  order_no: z.string().trim().max(40).optional(),
});
export type TAdminWithdrawalQueueQuery = z.infer<typeof ZAdminWithdrawalQueueQuery>;

export const ZAdminWithdrawalRow = z.object({
  order_no: z.string(),
  member_id: z.string(),
  username: z.string(),
  amount: z.string().describe('decimal BRL, e.g. "1234.56"'),
  fee: z.string(),
  actual: z.string(),
  status: z.string(),
  pix_key_type: z.string(),
  payee_name: z.string(),
  created_at: z.string(),
  reviewed_at: z.string().nullable(),
  remark: z.string().nullable(),
  risks: z.array(z.enum(WITHDRAWAL_RISKS)),
  /** How many approvals it has and needs (2 above the site's second-approval amount). */
  approvals: z.number().int(),
  approvals_needed: z.number().int(),
});
export type TAdminWithdrawalRow = z.infer<typeof ZAdminWithdrawalRow>;
export const ZAdminWithdrawalQueueResponse = ZAdminPage(ZAdminWithdrawalRow);
export type TAdminWithdrawalQueueResponse = z.infer<typeof ZAdminWithdrawalQueueResponse>;

/** GET /api/admin/withdrawals/:order_no/review: the order, the player's history and risk signals. */
export const ZAdminWithdrawalReview = z.object({
  order: ZAdminWithdrawalRow.extend({ pix_key: z.string(), payee_cpf: z.string().nullable() }),
  player: z.object({
    id: z.string(),
    username: z.string(),
    created_at: z.string(),
    cpf: z.string().nullable(),
    balance: z.string(),
    wagering_required: z.string(),
    deposits: z.object({ count: z.number().int(), total: z.string() }),
    withdrawals_paid: z.object({ count: z.number().int(), total: z.string() }),
    bonuses: z.object({ count: z.number().int(), total: z.string() }),
    cards: z.number().int(),
    other_accounts_same_cpf: z.array(z.string()).describe('usernames of other accounts with this CPF'),
  }),
  history: z.array(
    z.object({ order_no: z.string(), amount: z.string(), status: z.string(), created_at: z.string() }),
  ),
  approvals_log: z.array(z.object({ operator: z.string(), remark: z.string().nullable(), at: z.string() })),
  second_approval_from: z.string().nullable().describe('amount from which two operators must approve'),
});
export type TAdminWithdrawalReview = z.infer<typeof ZAdminWithdrawalReview>;

/** GET /api/admin/operators: the site's operators (owner only), paged. */
export const ZAdminOperatorsResponse = ZAdminPage(ZOperatorAccount);

/** POST /api/admin/operators: a new operator with a role; the answer carries the authenticator secret once. */
export const ZCreateOperatorRequest = z.object({
  username: ZUsername,
  password: z
    .string({ error: (issue) => (issue.input === undefined ? M.required('password') : M.wrongType) })
    .min(OPERATOR_PASSWORD_MIN, { error: 'validation.operator_password_min' })
    .max(128, { error: M.tooLong }),
  role: z.enum(OPERATOR_ROLES),
});
export type TCreateOperatorRequest = z.infer<typeof ZCreateOperatorRequest>;

export const ZOperatorIdParams = z.object({
  id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER),
});

/** The new authenticator of an operator (created or reset): shown once, to hand over. */
export const ZOperatorSecretResponse = z.object({
  operator: ZOperatorAccount,
  totp_secret: z.string(),
  otpauth_uri: z.string(),
  qr_code: z.string(),
});
export type TOperatorSecretResponse = z.infer<typeof ZOperatorSecretResponse>;

/** POST /api/admin/operators/:id/status: 1 active, 0 disabled (its sessions end). */
export const ZOperatorStatusRequest = z.object({ status: z.union([z.literal(0), z.literal(1)]) });

/** GET /api/admin/audit: the operator audit log of the site, newest first (filters; CSV). */
export const ZAdminAuditQuery = ZAdminPageQuery.extend({
  operator: z.string().trim().max(40).optional().describe('operator username'),
  action: z.string().trim().max(60).optional().describe('action, or its prefix (e.g. "withdrawal.")'),
  entity: z.string().trim().max(40).optional(),
  entity_id: z.string().trim().max(60).optional(),
  member_id: z
    .string()
    .regex(/^\d{1,19}$/)
    .optional(),
});
export type TAdminAuditQuery = z.infer<typeof ZAdminAuditQuery>;

export const ZAdminAuditEntry = z.object({
  id: z.string(),
  at: z.string(),
  operator: z.string(),
  action: z.string(),
  member_id: z.string().nullable(),
  username: z.string().nullable().describe("the player's username when the entry is about one"),
  entity: z.string().nullable(),
  entity_id: z.string().nullable(),
  before: z.unknown(),
  after: z.unknown(),
  ip: z.string().nullable(),
});
export type TAdminAuditEntry = z.infer<typeof ZAdminAuditEntry>;
export const ZAdminAuditResponse = ZAdminPage(ZAdminAuditEntry);

/**
 * POST /api/admin/audit/verify: walks the site's audit hash chain (each entry's hash = sha256 of the
 * previous entry's hash and its own canonical content) and reports the first broken link.
 */
export const ZAuditChainBreak = z.object({
  id: z
    .string()
    .nullable()
    .describe('the entry where the chain breaks (null: the chain head no longer matches)'),
  seq: z.string().describe("the entry's place in the site's chain"),
  reason: z
    .enum(['hash_mismatch', 'prev_hash_mismatch', 'sequence_gap', 'head_mismatch'])
    .describe(
      'hash_mismatch: the content was changed; prev_hash_mismatch / sequence_gap: an entry before it was removed or changed; head_mismatch: entries at the end were removed',
    ),
  expected: z.string(),
  stored: z.string(),
});
export const ZAuditChainReport = z.object({
  intact: z.boolean(),
  entries: z.number().int().describe('entries walked'),
  head_hash: z.string().describe('hash of the last entry (note it down to detect a rewritten chain later)'),
  broken: ZAuditChainBreak.nullable(),
});
export type TAuditChainReport = z.infer<typeof ZAuditChainReport>;
