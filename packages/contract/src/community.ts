import { z } from 'zod';
import { ZRegisterRequest } from './auth.ts';
import { ZLangQuery } from './site.ts';
import { M, requiredString } from './validation.ts';

/**
 * The information centre, the agency centre and the site chat (issue 12): spec §2 routes
 * /information-center/*, /notification, /announcement, /agency-center/*; §7 calls
 * api/informationcenter/*, api/agency/*. Money is a decimal string with two places ("0.00"); rates
 * are basis points (30 = 0.30 %).
 */

const money = z.string().describe('decimal string, 2 places, BRL');

// ---------------------------------------------------------------------------------------------
// Information centre

/** `?site=` of the spec's information-centre calls (the Host decides the site; a mismatch is ignored). */
export const ZInformationQuery = ZLangQuery.extend({ site: z.string().max(64).optional() });

export const ZSupportChannel = z.object({
  /** telegram, instagram, whatsapp, youtube, facebook, x. */
  name: z.string(),
  url: z.string(),
  icon: z.string(),
});

/** GET /api/informationcenter/support: where players reach the site. */
export const ZSupportResponse = z.object({
  telegramLink: z.string().nullable(),
  channels: z.array(ZSupportChannel),
  /** The in-app support chat: an operator desk URL, or the site chat room when it is on. */
  support_chat: z.object({ url: z.string().nullable(), room: z.boolean() }),
});
export type TSupportResponse = z.infer<typeof ZSupportResponse>;

/** What a personal notification is about; the web app words each one in the reader's language. */
export const NOTIFICATION_KINDS = [
  'deposit_paid',
  'withdraw_reviewed',
  'withdraw_paid',
  'withdraw_rejected',
  'withdraw_failed',
  'login_new_device',
  'level_up',
  'reward_granted',
  'commission_settled',
  'rain_received',
  /** A message from the site's operators (params: title, body; as they wrote it). */
  'operator_message',
] as const;
export type TNotificationKind = (typeof NOTIFICATION_KINDS)[number];

export const ZNotification = z.object({
  id: z.number().int(),
  kind: z.enum(NOTIFICATION_KINDS),
  /** The facts the text names: amount, order_no, level, ip, device, period… (strings). */
  params: z.record(z.string(), z.string()),
  read: z.boolean(),
  created_at: z.string().describe('ISO 8601'),
});
export type TNotification = z.infer<typeof ZNotification>;

/** Largest page of notifications. */
export const NOTIFICATION_PAGE_SIZE = 50;

/** GET /api/informationcenter/notification?site=: the caller's latest notifications. */
export const ZNotificationListResponse = z.object({
  data: z.array(ZNotification),
  unread: z.number().int(),
});
export type TNotificationListResponse = z.infer<typeof ZNotificationListResponse>;

/** GET /api/informationcenter/notification/unread: the header badge. */
export const ZUnreadResponse = z.object({ unread: z.number().int() });
export type TUnreadResponse = z.infer<typeof ZUnreadResponse>;

/** POST /api/informationcenter/notification/read: some (ids) or all of the caller's notifications. */
export const ZNotificationReadRequest = z.object({
  ids: z
    .array(z.number({ error: M.wrongType }).int({ error: M.wrongType }).positive({ error: M.wrongType }))
    .max(NOTIFICATION_PAGE_SIZE, { error: M.wrongType })
    .optional(),
  all: z.boolean({ error: M.wrongType }).optional(),
});
export type TNotificationReadRequest = z.infer<typeof ZNotificationReadRequest>;

export const ZAnnouncement = z.object({
  id: z.number().int(),
  title: z.string(),
  body: z.string(),
  published_at: z.string().describe('ISO 8601'),
});
export type TAnnouncement = z.infer<typeof ZAnnouncement>;

/** GET /api/informationcenter/announcement?site=: the site's notices, in the request's language. */
export const ZAnnouncementListResponse = z.object({ data: z.array(ZAnnouncement) });
export type TAnnouncementListResponse = z.infer<typeof ZAnnouncementListResponse>;

/** A live push on /ws when a notification is created for the member. */
export interface TNotificationPush {
  type: 'notification';
  notification: TNotification;
  unread: number;
}

// ---------------------------------------------------------------------------------------------
// Agency

/** GET /api/agency/invite: the caller's code and the link that carries it. */
export const ZInviteResponse = z.object({
  invite_code: z.string(),
  invite_link: z.string(),
});
export type TInviteResponse = z.infer<typeof ZInviteResponse>;

export const ZTeamMember = z.object({
  /** Masked: the first two and last character ("ma***a"). */
  username: z.string(),
  /** 1 = invited by the caller, 2 = invited by one of the caller's invitees, … */
  level: z.number().int(),
  joined_at: z.string(),
  active_today: z.boolean(),
});

/** GET /api/agency/team: the caller's team. */
export const ZTeamResponse = z.object({
  direct: z.number().int(),
  indirect: z.number().int(),
  total: z.number().int(),
  active_today: z.number().int(),
  new_this_week: z.number().int(),
  /** The newest members first, at most TEAM_LIST_MAX. */
  members: z.array(ZTeamMember),
  /** Levels counted on this site (1 on br). */
  max_levels: z.number().int(),
});
export type TTeamResponse = z.infer<typeof ZTeamResponse>;
export const TEAM_LIST_MAX = 100;

export const ZInviteRecordRequest = z
  .object({ level: z.enum(['all', 'direct', 'indirect'], { error: M.wrongType }).optional() })
  .nullish()
  .transform((body) => ({ level: body?.level ?? 'all' }));

export const ZInviteRecordRow = z.object({
  username: z.string(),
  level: z.number().int(),
  joined_at: z.string(),
  total_deposit: money,
  total_bet: money,
});

/** POST /api/agency/inviterecord: invitees with their totals and the direct and indirect rewards. */
export const ZInviteRecordResponse = z.object({
  totals: z.object({
    invitees: z.number().int(),
    direct_invitees: z.number().int(),
    indirect_invitees: z.number().int(),
    total_deposit: money,
    total_bet: money,
    direct_reward: money,
    indirect_reward: money,
    total_reward: money,
  }),
  data: z.array(ZInviteRecordRow),
});
export type TInviteRecordResponse = z.infer<typeof ZInviteRecordResponse>;

export const ZCommissionPeriod = z.object({
  period: z.string().describe('YYYY-MM-DD, a day in the site time zone'),
  basis: z.enum(['turnover', 'ngr']),
  team_volume: money,
  direct: money,
  indirect: money,
  amount: money,
  status: z.enum(['unclaimed', 'claimed']),
  claimed_at: z.string().nullable(),
});

/** POST /api/agency/reward: commissions per settled period and what can be claimed now. */
export const ZAgencyRewardResponse = z.object({
  unclaimed: money,
  claimed: money,
  data: z.array(ZCommissionPeriod),
});
export type TAgencyRewardResponse = z.infer<typeof ZAgencyRewardResponse>;

/** POST /api/agency/reward/claim: every unclaimed period into the cash balance. */
export const ZAgencyClaimResponse = z.object({ claimed: money, periods: z.number().int() });
export type TAgencyClaimResponse = z.infer<typeof ZAgencyClaimResponse>;

/**
 * POST /api/admin/agency/settle: an operator runs the settlement of the site's previous period now
 * (the same exactly-once run as the daily job: `settled` false when it already was).
 */
export const ZAgencySettleResponse = z.object({
  period: z.string(),
  settled: z.boolean(),
  members: z.number().int(),
  total: money,
});
export type TAgencySettleResponse = z.infer<typeof ZAgencySettleResponse>;

/**
 * GET /api/admin/agency/referral-blocks: rewards for bringing a player that were not paid because
 * inviter and invitee share identity signals (ADR 030). Only the kinds of signal, never a value.
 */
export const REFERRAL_SIGNALS = ['cpf', 'payer_cpf', 'pix_key', 'ip'] as const;
export const ZReferralBlocksResponse = z.object({
  list: z.array(
    z.object({
      id: z.string(),
      reward: z.enum(['invitation', 'commission']),
      inviter: z.string(),
      invitee: z.string(),
      signals: z.array(z.enum(REFERRAL_SIGNALS)),
      first_seen_at: z.string(),
      last_seen_at: z.string(),
    }),
  ),
});
export type TReferralBlocksResponse = z.infer<typeof ZReferralBlocksResponse>;

/** GET /api/agency/mechanism/recharge: commission on subordinates' deposits, per level. */
export const ZMechanismRecharge = z.object({
  enabled: z.boolean(),
  /** Why it is off (a translated sentence), e.g. Brazilian rules forbid rewards tied to deposits. */
  off_reason: z.string().nullable(),
  levels: z.array(z.object({ level: z.number().int(), rate_bps: z.number().int() })),
});
export type TMechanismRecharge = z.infer<typeof ZMechanismRecharge>;

/** GET /api/agency/mechanism/betting: the tiers of team volume and the rate of each level. */
export const ZMechanismBetting = z.object({
  basis: z.enum(['turnover', 'ngr']),
  max_levels: z.number().int(),
  tiers: z.array(z.object({ min_team_volume: money, rates_bps: z.array(z.number().int()) })),
});
export type TMechanismBetting = z.infer<typeof ZMechanismBetting>;

/** GET /api/agency/mechanism/settlement: when periods close and how commissions are paid. */
export const ZMechanismSettlement = z.object({
  period: z.literal('day'),
  time_zone: z.string(),
  claim: z.literal('manual'),
  last_period: z.string().nullable(),
  next_settlement_at: z.string(),
  min_claim: money,
});
export type TMechanismSettlement = z.infer<typeof ZMechanismSettlement>;

/**
 * POST /api/agency/subordinate/register: the caller registers a player invited by them (the body of
 * api/auth/register2; its invite_code is ignored: the caller's own code is used). The new player is
 * not logged in here.
 */
export const ZSubordinateRegisterRequest = ZRegisterRequest;
export type TSubordinateRegisterRequest = z.infer<typeof ZSubordinateRegisterRequest>;
export const ZSubordinateRegisterResponse = z.object({ username: z.string(), level: z.literal(1) });

// ---------------------------------------------------------------------------------------------
// Chat

export const CHAT_TEXT_MAX = 500;

export const ZChatMessage = z.object({
  id: z.number().int(),
  author: z.string(),
  /** Plain text: clients show it as text, never as HTML. */
  text: z.string(),
  created_at: z.string(),
});
export type TChatMessage = z.infer<typeof ZChatMessage>;

export const ZChatRainInfo = z.object({
  enabled: z.boolean(),
  off_reason: z.string().nullable(),
  every_minutes: z.number().int(),
  pot: money,
  window_minutes: z.number().int(),
  /** Who shares it: stakes of at least `min_wager` in the `wager_days` days before the rain. */
  min_wager: money,
  wager_days: z.number().int(),
  next_at: z.string().nullable(),
  last: z.object({ at: z.string(), eligible: z.number().int(), share: money }).nullable(),
});

/** GET /api/chat/room: the site room's settings and its latest messages (oldest first). */
export const ZChatRoomResponse = z.object({
  enabled: z.boolean(),
  max_chars: z.number().int(),
  rate: z.object({ messages: z.number().int(), seconds: z.number().int() }),
  muted_until: z.string().nullable().describe('the caller is muted (null: not muted or a guest)'),
  muted: z.boolean(),
  messages: z.array(ZChatMessage),
  rain: ZChatRainInfo,
});
export type TChatRoomResponse = z.infer<typeof ZChatRoomResponse>;

/** POST /api/chat/send. */
export const ZChatSendRequest = z.object({
  text: requiredString('message', CHAT_TEXT_MAX).max(CHAT_TEXT_MAX, { error: 'validation.too_long' }),
});
export const ZChatSendResponse = ZChatMessage;

/** Operator: POST /api/admin/chat/mute. */
export const ZChatMuteRequest = z.object({
  username: requiredString('username', 40),
  /** Null or absent: until lifted. */
  minutes: z.number({ error: M.wrongType }).int({ error: M.wrongType }).min(1).max(525_600).nullish(),
  reason: z.string().max(200).optional(),
});
export const ZChatUnmuteRequest = z.object({ username: requiredString('username', 40) });
export const ZChatMuteResponse = z.object({
  username: z.string(),
  muted_until: z.string().nullable(),
  muted: z.boolean(),
});
export const ZChatDeleteResponse = z.object({ id: z.number().int(), deleted: z.boolean() });

/** Pushes of the chat room on /ws (after `{ "type": "chat_join" }`). */
export type TChatPush =
  | { type: 'chat_history'; messages: TChatMessage[] }
  | { type: 'chat_message'; message: TChatMessage }
  | { type: 'chat_delete'; id: number }
  | { type: 'chat_rain'; at: string; eligible: number; share: string };
