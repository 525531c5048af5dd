import { bigint, integer, jsonb, pgTable, primaryKey, smallint, text, timestamp } from 'drizzle-orm/pg-core';

/** Drizzle view of the site tables of migrations/0001_foundation.sql (the SQL file is the source of truth). */

export type TJurisdiction = 'intl' | 'br';

export const sites = pgTable('sites', {
  id: bigint('id', { mode: 'bigint' }).primaryKey().generatedAlwaysAsIdentity(),
  code: text('code').notNull().unique(),
  name: text('name').notNull(),
  jurisdiction: text('jurisdiction').$type<TJurisdiction>().notNull(),
  defaultLang: text('default_lang').notNull(),
  languages: text('languages').array().notNull(),
  logo: text('logo').notNull(),
  favicon: text('favicon').notNull(),
  theme: jsonb('theme').$type<Record<string, string>>().notNull(),
  backgroundVideo: text('background_video'),
  telegramLink: text('telegram_link'),
  minAge: integer('min_age').notNull(),
  categories: text('categories').array().notNull(),
  sessionIdleMinutes: integer('session_idle_minutes').notNull(),
  status: smallint('status').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
export type TSiteRow = typeof sites.$inferSelect;

export const siteDomains = pgTable('site_domains', {
  host: text('host').primaryKey(),
  siteId: bigint('site_id', { mode: 'bigint' }).notNull(),
});

export const siteBanners = pgTable('site_banners', {
  id: bigint('id', { mode: 'bigint' }).primaryKey().generatedAlwaysAsIdentity(),
  siteId: bigint('site_id', { mode: 'bigint' }).notNull(),
  position: integer('position').notNull(),
  image: text('image').notNull(),
  title: jsonb('title').$type<Record<string, string>>().notNull(),
  link: text('link'),
  /** The campaign the banner advertises: listed only while it is on for the site (migration 0021). */
  campaignCode: text('campaign_code'),
});

export const siteSocialLinks = pgTable(
  'site_social_links',
  {
    siteId: bigint('site_id', { mode: 'bigint' }).notNull(),
    name: text('name').notNull(),
    url: text('url').notNull(),
    position: integer('position').notNull(),
  },
  (t) => [primaryKey({ columns: [t.siteId, t.name] })],
);
