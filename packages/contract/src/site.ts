import { z } from 'zod';

/** Query every call carries. */
export const ZLangQuery = z.object({ lang: z.string().max(32).optional() });
export type TLangQuery = z.infer<typeof ZLangQuery>;

/** GET /api/language/getList?lang&domain → supported languages of this site, default first. */
export const ZLanguageEntry = z.object({
  language_flag_link: z.string(),
  language_name: z.string(),
  language_code: z.string(),
});
export const ZLanguageList = z.array(ZLanguageEntry);
export const ZLanguageListQuery = ZLangQuery.extend({
  /** A host name of this site (the request's own Host decides when absent). */
  domain: z.string().max(253).optional(),
});
export type TLanguageListQuery = z.infer<typeof ZLanguageListQuery>;
export const ZLanguageListResponse = ZLanguageList;
export type TLanguageListResponse = z.infer<typeof ZLanguageListResponse>;
export type TLanguageEntry = z.infer<typeof ZLanguageEntry>;

export const ZTheme = z.record(z.string().regex(/^--[a-z0-9-]+$/), z.string());

export const ZBanner = z.object({
  id: z.number().int(),
  image: z.string(),
  title: z.record(z.string(), z.string()).describe('per language'),
  link: z.string().nullable(),
});

/** GET /api/dynamicwebs/getdata → what the shell needs to draw this site. */
export const ZSiteData = z.object({
  site: z.string().describe('site code'),
  name: z.string(),
  logo: z.string(),
  favicon: z.string(),
  jurisdiction: z.enum(['intl', 'br']),
  currency: z.literal('BRL'),
  default_lang: z.string(),
  languages: z.array(z.string()),
  theme: ZTheme,
  banners: z.array(ZBanner),
  categories: z.array(z.string()),
  background_video: z.string().nullable(),
  captcha_required: z.boolean(),
  min_age: z.number().int(),
  telegram_link: z.string().nullable(),
  /** What sign-up asks on this site (its jurisdiction profile): CPF, date of birth, mandatory limits. */
  registration: z.object({
    requires_cpf: z.boolean(),
    requires_birth_date: z.boolean(),
    mandatory_limits: z.array(z.enum(['deposit', 'loss', 'stake', 'session_time'])),
    /** The gambling-risk message shows at sign-up and at login. */
    shows_risk_message: z.boolean(),
  }),
});
export type TSiteData = z.infer<typeof ZSiteData>;
export const ZSiteDataQuery = ZLangQuery;
export const ZSiteDataResponse = ZSiteData;

/** GET /api/socialmedialinks/get?site */
export const ZSocialLink = z.object({ name: z.string(), url: z.string(), icon: z.string() });
export const ZSocialLinks = z.array(ZSocialLink);
export type TSocialLink = z.infer<typeof ZSocialLink>;
export const ZSocialLinksQuery = ZLangQuery.extend({
  /** The site code; when sent it must be the site the request's host belongs to. */
  site: z.string().max(32).optional(),
});
export type TSocialLinksQuery = z.infer<typeof ZSocialLinksQuery>;
export const ZSocialLinksResponse = ZSocialLinks;
