import { z } from 'zod';
import { CATEGORY_KEY_MESSAGE, CATEGORY_WEIGHT_KEYS, GAME_CATEGORIES, GAME_TAGS } from './games.ts';
import { LANGUAGES } from './languages.ts';
import { MAX_MINOR, parseMinor } from './money.ts';
import { M, requiredString } from './validation.ts';

/**
 * Back office, content (issue 15): what an operator edits on their own site — the site itself
 * (name, host names, look, languages, jurisdiction, payment channels, withdrawal rules, social
 * links), the game catalogue, promotions and commission rules, announcements and notifications, the
 * chat. Every call is under /api/admin/*, needs an operator token with the call's permission, and
 * every change is written to the operator audit log with what was there before and after.
 * Money is a decimal string with two places ("10.00"); rates are basis points (100 = 1 %).
 */

/** Schema messages are i18n keys (translated by the server and by the back office). */
export const BM = {
  defaultLang: 'validation.default_lang_not_in_languages',
  bounds: 'validation.max_below_min',
  theme: 'validation.theme_value',
  host: 'validation.host_name',
  url: 'validation.url',
  code: 'validation.key_format',
  recipient: 'validation.recipient',
  dates: 'validation.expires_before_publish',
} as const;

const int = (min: number, max: number) =>
  z
    .number({ error: M.wrongType })
    .int({ error: M.wrongType })
    .min(min, { error: 'validation.invalid' })
    .max(max, { error: 'validation.invalid' });

/** A money amount ("10", "10.5", "10.50") in the request; centavos after parsing. */
export const ZAdminMoneyInput = z
  .string({ error: M.wrongType })
  .refine((text) => parseMinor(text) !== null, { error: 'validation.invalid' });

/** A URL the site links to: an absolute https/http URL or a path on the site. */
const ZLink = z
  .string({ error: M.wrongType })
  .trim()
  .max(300, { error: M.tooLong })
  .regex(/^(https?:\/\/[^\s<>"']+|\/[^\s<>"']*)$/, { error: BM.url });

// ---------------------------------------------------------------------------------------------
// Sites

/** The home page's category tabs a site may show, in the order it chooses. */
export const SITE_CATEGORY_TABS = [
  'slots',
  'live',
  'arcade',
  'crash',
  'fish',
  'bingo',
  'card',
  'lottery',
  'sports',
  'video',
] as const;

export const JURISDICTIONS = ['intl', 'br'] as const;

/** CSS custom properties of the site's look: colours, sizes and font names only (nothing that escapes a declaration). */
export const ZAdminTheme = z
  .record(
    z.string().regex(/^--[a-z0-9-]{1,40}$/, { error: BM.theme }),
    z
      .string({ error: M.wrongType })
      .trim()
      .min(1, { error: BM.theme })
      .max(120, { error: M.tooLong })
      .regex(/^[#(),.%\w\s'"+-]+$/, { error: BM.theme }),
  )
  .refine((theme) => Object.keys(theme).length <= 60, { error: M.tooLong });

export const ZHostName = z
  .string({ error: M.wrongType })
  .trim()
  .toLowerCase()
  .max(253, { error: M.tooLong })
  .regex(/^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/, {
    error: BM.host,
  });

export const ZSocialLinkInput = z.object({
  name: z.string({ error: M.wrongType }).regex(/^[a-z0-9_]{2,32}$/, { error: BM.code }),
  url: ZLink,
});

export const ZSiteSettings = z.object({
  code: z.string(),
  name: z.string(),
  hosts: z.array(z.string()),
  jurisdiction: z.enum(JURISDICTIONS),
  default_lang: z.enum(LANGUAGES),
  languages: z.array(z.enum(LANGUAGES)),
  logo: z.string(),
  favicon: z.string(),
  theme: z.record(z.string(), z.string()),
  telegram_link: z.string().nullable(),
  categories: z.array(z.string()),
  social_links: z.array(z.object({ name: z.string(), url: z.string() })),
});
export type TSiteSettings = z.infer<typeof ZSiteSettings>;

/** PUT /api/admin/site: the site's name, host names, look, languages, jurisdiction and links. */
export const ZSiteSettingsUpdate = z
  .object({
    name: requiredString('name', 64),
    hosts: z
      .array(ZHostName, { error: M.wrongType })
      .min(1, { error: BM.host })
      .max(20, { error: M.tooLong })
      .refine((hosts) => new Set(hosts).size === hosts.length, { error: BM.host }),
    jurisdiction: z.enum(JURISDICTIONS, { error: 'validation.invalid' }),
    default_lang: z.enum(LANGUAGES, { error: 'validation.invalid' }),
    languages: z
      .array(z.enum(LANGUAGES, { error: 'validation.invalid' }), { error: M.wrongType })
      .min(1, { error: BM.defaultLang })
      .refine((list) => new Set(list).size === list.length, { error: 'validation.invalid' }),
    logo: ZLink,
    favicon: ZLink,
    theme: ZAdminTheme,
    telegram_link: ZLink.nullable(),
    categories: z
      .array(z.enum(SITE_CATEGORY_TABS, { error: 'validation.invalid' }), { error: M.wrongType })
      .refine((list) => new Set(list).size === list.length, { error: 'validation.invalid' }),
    social_links: z
      .array(ZSocialLinkInput, { error: M.wrongType })
      .max(20, { error: M.tooLong })
      .refine((links) => new Set(links.map((l) => l.name)).size === links.length, {
        error: BM.code,
      }),
  })
  .refine((site) => site.languages.includes(site.default_lang), {
    error: BM.defaultLang,
    path: ['default_lang'],
  });
export type TSiteSettingsUpdate = z.infer<typeof ZSiteSettingsUpdate>;

export const ZAdminPaymentChannel = z.object({
  method: z.string(),
  method_name: z.string(),
  code: z.string(),
  name: z.string(),
  min: z.string(),
  max: z.string(),
  fee_bps: z.number().int(),
  bonus_bps: z.number().int(),
  presets: z.array(z.string()),
  expires_seconds: z.number().int(),
  enabled: z.boolean(),
});
export type TAdminPaymentChannel = z.infer<typeof ZAdminPaymentChannel>;

export const ZPaymentChannelInput = z
  .object({
    method: z.string({ error: M.wrongType }).regex(/^[a-z0-9_]{2,32}$/, { error: BM.code }),
    method_name: requiredString('name', 64),
    code: z.string({ error: M.wrongType }).regex(/^[a-z0-9_]{2,32}$/, { error: BM.code }),
    name: requiredString('name', 64),
    min: ZAdminMoneyInput,
    max: ZAdminMoneyInput,
    fee_bps: int(0, 10_000),
    bonus_bps: int(0, 10_000),
    presets: z.array(ZAdminMoneyInput, { error: M.wrongType }).max(12, { error: M.tooLong }),
    expires_seconds: int(60, 86_400),
    enabled: z.boolean({ error: M.wrongType }),
  })
  .refine((c) => parseMinor(c.min)! > 0n && parseMinor(c.max)! >= parseMinor(c.min)!, {
    error: BM.bounds,
    path: ['max'],
  });

/** PUT /api/admin/site/payment-channels: the site's deposit channels, in order (replaces the list). */
export const ZPaymentChannelsUpdate = z.object({
  channels: z
    .array(ZPaymentChannelInput, { error: M.wrongType })
    .min(1, { error: 'validation.invalid' })
    .max(20, { error: M.tooLong })
    .refine((list) => new Set(list.map((c) => c.code)).size === list.length, { error: BM.code }),
});
export type TPaymentChannelsUpdate = z.infer<typeof ZPaymentChannelsUpdate>;

export const ZWithdrawalRules = z.object({
  min: z.string(),
  max: z.string(),
  daily_count_max: z.number().int(),
  fees: z.array(z.object({ channel: z.string(), fee_bps: z.number().int(), fee_min: z.string() })),
});
export type TWithdrawalRules = z.infer<typeof ZWithdrawalRules>;

/** PUT /api/admin/site/withdrawals: bounds, withdrawals per day and the fee of each payout channel. */
export const ZWithdrawalRulesUpdate = z
  .object({
    min: ZAdminMoneyInput,
    max: ZAdminMoneyInput,
    daily_count_max: int(1, 1000),
    fees: z
      .array(
        z.object({
          channel: z.string({ error: M.wrongType }).regex(/^[a-z0-9_]{1,32}$/, { error: BM.code }),
          fee_bps: int(0, 10_000),
          fee_min: ZAdminMoneyInput,
        }),
        { error: M.wrongType },
      )
      .min(1, { error: 'validation.invalid' })
      .max(10, { error: M.tooLong })
      .refine((list) => new Set(list.map((f) => f.channel)).size === list.length, { error: BM.code }),
  })
  .refine((w) => parseMinor(w.min)! > 0n && parseMinor(w.max)! >= parseMinor(w.min)!, {
    error: BM.bounds,
    path: ['max'],
  })
  .refine((w) => w.fees.every((f) => parseMinor(f.fee_min)! < parseMinor(w.min)!), {
    error: BM.bounds,
    path: ['fees'],
  });
export type TWithdrawalRulesUpdate = z.infer<typeof ZWithdrawalRulesUpdate>;

// ---------------------------------------------------------------------------------------------
// Game catalogue

export const ZAdminGamesQuery = z.object({
  lang: z.string().max(32).optional(),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  page_size: z.coerce.number().int().min(1).max(200).default(50),
  search: z.string().trim().max(64).optional(),
  category: z.enum(GAME_CATEGORIES, { error: 'validation.invalid' }).optional(),
  provider: z.string().max(32).optional(),
  enabled: z.enum(['true', 'false'], { error: 'validation.invalid' }).optional(),
  /** csv: every matching row as a download instead of one page. */
  format: z.enum(['json', 'csv'], { error: 'validation.invalid' }).optional(),
});
export type TAdminGamesQuery = z.infer<typeof ZAdminGamesQuery>;

export const ZAdminGame = z.object({
  id: z.string(),
  code: z.string(),
  name: z.string(),
  provider: z.string(),
  provider_name: z.string(),
  is_inhouse: z.boolean(),
  /** What players of this site see (the site's own value, else the catalogue's). */
  enabled: z.boolean(),
  position: z.number().int(),
  category: z.enum(GAME_CATEGORIES),
  tags: z.array(z.enum(GAME_TAGS)),
  /** Switched off in the whole catalogue (no site can show it). */
  catalogue_enabled: z.boolean(),
  thumbnail: z.string(),
});
export type TAdminGame = z.infer<typeof ZAdminGame>;

export const ZAdminGamesPage = z.object({
  list: z.array(ZAdminGame),
  total: z.number().int(),
  page: z.number().int(),
  page_size: z.number().int(),
});
export type TAdminGamesPage = z.infer<typeof ZAdminGamesPage>;

/** PATCH /api/admin/games/:id: what this site shows of one game (only the fields given change). */
export const ZAdminGameUpdate = z
  .object({
    enabled: z.boolean({ error: M.wrongType }).optional(),
    position: int(0, 1_000_000).optional(),
    category: z.enum(GAME_CATEGORIES, { error: 'validation.invalid' }).optional(),
    tags: z
      .array(z.enum(GAME_TAGS, { error: 'validation.invalid' }), { error: M.wrongType })
      .max(GAME_TAGS.length, { error: 'validation.invalid' })
      .refine((tags) => new Set(tags).size === tags.length, { error: 'validation.invalid' })
      .optional(),
  })
  .refine((patch) => Object.keys(patch).length > 0, { error: 'validation.invalid' });
export type TAdminGameUpdate = z.infer<typeof ZAdminGameUpdate>;

export const ZGameIdParams = z.object({
  id: z.string().regex(/^[1-9]\d{0,17}$/, { error: 'validation.invalid' }),
});

// ---------------------------------------------------------------------------------------------
// Promotions and commission rules

export const CAMPAIGN_TRIGGERS = [
  'first_deposit',
  'each_deposit',
  'invitee_deposit',
  'daily_net_loss',
  'deposit_spins',
  'daily_turnover',
] as const;

const minorText = z
  .string({ error: M.wrongType })
  .regex(/^\d{1,13}$/, { error: 'validation.invalid' })
  .refine((text) => BigInt(text) <= MAX_MINOR, { error: 'validation.invalid' });
const bps = int(0, 100_000);

/** A map keyed by game category: any other key is refused with its own message (what keys exist). */
function categoryMap<const K extends readonly [string, ...string[]]>(keys: K, value: z.ZodNumber) {
  return z.partialRecord(z.enum(keys), value, {
    error: (issue) => (issue.code === 'invalid_type' ? M.wrongType : CATEGORY_KEY_MESSAGE),
  });
}

/** A campaign's rules as data (ADR 012): the shape promotions.profiles.ts seeds, amounts in centavos. */
export const ZAdminCampaignRules = z.object({
  trigger: z.enum(CAMPAIGN_TRIGGERS, { error: 'validation.invalid' }),
  activation: z.enum(['MANUAL_CLAIM', 'AUTOMATIC'], { error: 'validation.invalid' }),
  timeZone: z
    .string({ error: M.wrongType })
    .max(64)
    .refine(
      (zone) => {
        try {
          new Intl.DateTimeFormat('en', { timeZone: zone });
          return true;
        } catch {
          return false;
        }
      },
      { error: 'validation.invalid' },
    ),
  reward: z.strictObject({
    bps: bps.optional(),
    fixedMinor: minorText.optional(),
    minBaseMinor: minorText.optional(),
    capMinor: minorText.optional(),
    tiers: z
      .array(z.tuple([minorText, bps]))
      .max(20)
      .optional(),
    spinPerMinor: minorText.optional(),
    maxSpinsPerDay: int(1, 1000).optional(),
    prizes: z
      .array(
        z.object({
          amountMinor: minorText,
          weight: z.number({ error: M.wrongType }).positive({ error: 'validation.invalid' }).max(1_000_000),
          icon: z.string().max(32).nullable(),
        }),
      )
      .max(50)
      .optional(),
    categoryBps: categoryMap(GAME_CATEGORIES, bps).optional(),
    claimDays: int(1, 365).optional(),
  }),
  wagering: z.object({
    multiple: z.number({ error: M.wrongType }).min(0, { error: 'validation.invalid' }).max(100),
    base: z.enum(['deposit', 'reward'], { error: 'validation.invalid' }),
    maxBetMinor: minorText.nullable(),
    maxWinMinor: minorText.nullable(),
    weights: categoryMap(CATEGORY_WEIGHT_KEYS, int(0, 100)),
    expiryDays: int(1, 365),
    locksCash: z.boolean({ error: M.wrongType }),
  }),
  minVipLevel: int(0, 100).optional(),
});
export type TCampaignRulesInput = z.infer<typeof ZAdminCampaignRules>;

export const ZAdminCampaign = z.object({
  code: z.string(),
  enabled: z.boolean(),
  /** Message key of why it is off (shown to players in their language). */
  off_reason: z.string().nullable(),
  /** off_reason in the operator's language. */
  off_reason_text: z.string().nullable(),
  position: z.number().int(),
  /** Tied to a deposit (forbidden on profiles that do not allow deposit-tied rewards). */
  deposit_tied: z.boolean(),
  /** Why this site's jurisdiction profile does not allow turning it on (null: allowed), translated. */
  forbidden_reason: z.string().nullable(),
  rules: ZAdminCampaignRules,
});
export type TAdminCampaign = z.infer<typeof ZAdminCampaign>;

export const ZAdminCampaignList = z.object({ list: z.array(ZAdminCampaign) });

export const ZCampaignCodeParams = z.object({
  code: z.string().regex(/^[a-z_]{2,40}$/, { error: 'validation.invalid' }),
});

/** PATCH /api/admin/promotions/:code: on/off (pause), the reason shown while off, order and rules. */
export const ZAdminCampaignUpdate = z
  .object({
    enabled: z.boolean({ error: M.wrongType }).optional(),
    position: int(0, 1000).optional(),
    rules: ZAdminCampaignRules.optional(),
  })
  .refine((patch) => Object.keys(patch).length > 0, { error: 'validation.invalid' });
export type TAdminCampaignUpdate = z.infer<typeof ZAdminCampaignUpdate>;

/** Commission rules (ADR 017), amounts in centavos. */
export const ZAgencyRulesInput = z.object({
  timeZone: ZAdminCampaignRules.shape.timeZone,
  basis: z.enum(['turnover', 'ngr'], { error: 'validation.invalid' }),
  maxLevels: int(1, 10),
  tiers: z
    .array(z.object({ minTeamVolumeMinor: minorText, ratesBps: z.array(int(0, 10_000)).min(1).max(10) }))
    .min(1, { error: 'validation.invalid' })
    .max(20, { error: M.tooLong }),
  rechargeRatesBps: z.array(int(0, 10_000)).max(10).nullable(),
});
export type TAgencyRulesInput = z.infer<typeof ZAgencyRulesInput>;

export const ZAdminAgencyRules = z.object({
  rules: ZAgencyRulesInput,
  limits: z.object({
    max_levels: z.number().int(),
    deposit_based: z.boolean(),
    max_rate_bps: z.number().int(),
    deposit_off_reason: z.string().nullable(),
  }),
});
export type TAdminAgencyRules = z.infer<typeof ZAdminAgencyRules>;

// ---------------------------------------------------------------------------------------------
// Announcements, notifications, terms

const ZTexts = (max: number) =>
  z
    .partialRecord(
      z.enum(LANGUAGES, { error: 'validation.invalid' }),
      z.string().trim().max(max, { error: M.tooLong }),
    )
    .refine((texts) => Object.values(texts).some((text) => text && text.length > 0), {
      error: 'validation.required.message',
    });

export const ZAdminAnnouncement = z.object({
  id: z.number().int(),
  code: z.string(),
  title: z.record(z.string(), z.string()),
  body: z.record(z.string(), z.string()),
  position: z.number().int(),
  published_at: z.string(),
  expires_at: z.string().nullable(),
  /** Shown to players now. */
  live: z.boolean(),
});
export type TAdminAnnouncement = z.infer<typeof ZAdminAnnouncement>;

export const ZAdminListQuery = z.object({
  lang: z.string().max(32).optional(),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  page_size: z.coerce.number().int().min(1).max(200).default(50),
  /** csv: every matching row as a download instead of one page. */
  format: z.enum(['json', 'csv'], { error: 'validation.invalid' }).optional(),
});

export const ZAdminAnnouncementsPage = z.object({
  list: z.array(ZAdminAnnouncement),
  total: z.number().int(),
  page: z.number().int(),
  page_size: z.number().int(),
});

export const ZAdminAnnouncementInput = z
  .object({
    code: z.string({ error: M.wrongType }).regex(/^[a-z0-9_]{2,40}$/, { error: BM.code }),
    title: ZTexts(200),
    body: ZTexts(4000),
    position: int(-1000, 1000),
    published_at: z.iso.datetime({ offset: true, error: 'validation.invalid' }).optional(),
    expires_at: z.iso.datetime({ offset: true, error: 'validation.invalid' }).nullable().optional(),
  })
  .refine(
    (a) =>
      !a.expires_at || new Date(a.expires_at).getTime() > new Date(a.published_at ?? Date.now()).getTime(),
    { error: BM.dates, path: ['expires_at'] },
  );
export type TAdminAnnouncementInput = z.infer<typeof ZAdminAnnouncementInput>;

export const ZIdParams = z.object({ id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER) });

/** POST /api/admin/notifications: a message to one player (username) or to every player of the site. */
export const ZAdminNotificationInput = z
  .object({
    username: z.string().trim().max(40).optional(),
    all: z.boolean({ error: M.wrongType }).optional(),
    title: requiredString('title', 120),
    body: requiredString('message', 1000),
  })
  .refine((n) => (n.all === true) !== Boolean(n.username), { error: BM.recipient, path: ['username'] });
export type TAdminNotificationInput = z.infer<typeof ZAdminNotificationInput>;
export const ZAdminNotificationResult = z.object({ sent: z.number().int() });

export const ZAdminTermsVersion = z.object({
  version: z.number().int(),
  effective_at: z.string(),
  summary: z.string(),
  announced_by: z.string().nullable(),
  announced_at: z.string(),
  accepted: z.number().int(),
});
export const ZAdminTermsList = z.object({ list: z.array(ZAdminTermsVersion) });

// ---------------------------------------------------------------------------------------------
// Chat moderation and community settings

export const ZAdminChatQuery = ZAdminListQuery.extend({
  username: z.string().trim().max(40).optional(),
  deleted: z.enum(['true', 'false'], { error: 'validation.invalid' }).optional(),
});

export const ZAdminChatMessage = z.object({
  id: z.number().int(),
  username: z.string(),
  author: z.string(),
  text: z.string(),
  created_at: z.string(),
  deleted_at: z.string().nullable(),
  deleted_by: z.string().nullable(),
  muted: z.boolean(),
  muted_until: z.string().nullable(),
});
export type TAdminChatMessage = z.infer<typeof ZAdminChatMessage>;

export const ZAdminChatPage = z.object({
  list: z.array(ZAdminChatMessage),
  total: z.number().int(),
  page: z.number().int(),
  page_size: z.number().int(),
});

export const ZAdminChatMute = z.object({
  username: z.string(),
  until: z.string().nullable(),
  reason: z.string(),
  muted_by: z.string().nullable(),
  created_at: z.string(),
});
export const ZAdminChatMutes = z.object({ list: z.array(ZAdminChatMute) });

export const ZCommunitySettings = z.object({
  support_chat_url: z.string().nullable(),
  chat_enabled: z.boolean(),
  chat_max_chars: z.number().int(),
  chat_rate_messages: z.number().int(),
  chat_rate_seconds: z.number().int(),
  chat_history: z.number().int(),
  rain_enabled: z.boolean(),
  rain_off_reason: z.string().nullable(),
  rain_every_minutes: z.number().int(),
  rain_pot: z.string(),
  rain_window_minutes: z.number().int(),
  rain_min_wager: z.string(),
  rain_wager_days: z.number().int(),
});
export type TCommunitySettings = z.infer<typeof ZCommunitySettings>;

export const ZCommunitySettingsUpdate = z.object({
  support_chat_url: ZLink.nullable(),
  chat_enabled: z.boolean({ error: M.wrongType }),
  chat_max_chars: int(1, 500),
  chat_rate_messages: int(1, 100),
  chat_rate_seconds: int(1, 3600),
  chat_history: int(0, 200),
  rain_enabled: z.boolean({ error: M.wrongType }),
  rain_every_minutes: int(5, 10_080),
  rain_pot: ZAdminMoneyInput.refine((text) => parseMinor(text)! > 0n, { error: 'validation.invalid' }),
  rain_window_minutes: int(1, 1440),
  /** Stakes a player needs in the last `rain_wager_days` days to share a rain (0: chatting is enough). */
  rain_min_wager: ZAdminMoneyInput,
  rain_wager_days: int(1, 90),
});
export type TCommunitySettingsUpdate = z.infer<typeof ZCommunitySettingsUpdate>;
