import { and, asc, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { siteBanners, siteDomains, siteSocialLinks, sites, type TSiteRow } from './sites.schema.ts';

/** SQL for sites. Every function takes the executor (database or transaction) it runs in. */

export async function findSiteByHost(executor: Executor, host: string): Promise<TSiteRow | null> {
  const rows = await executor
    .select({ site: sites })
    .from(siteDomains)
    .innerJoin(sites, eq(sites.id, siteDomains.siteId))
    .where(eq(siteDomains.host, host))
    .limit(1);
  return rows[0]?.site ?? null;
}

export async function findSiteByCode(executor: Executor, code: string): Promise<TSiteRow | null> {
  const rows = await executor.select().from(sites).where(eq(sites.code, code)).limit(1);
  return rows[0] ?? null;
}

export function findBanners(executor: Executor, siteId: bigint) {
  return executor
    .select()
    .from(siteBanners)
    .where(
      and(
        eq(siteBanners.siteId, siteId),
        // A banner advertising a campaign shows only while that campaign is on for this site.
        sql`(${siteBanners.campaignCode} IS NULL OR EXISTS (
              SELECT 1 FROM promo_campaigns c
              WHERE c.site_id = ${siteBanners.siteId} AND c.code = ${siteBanners.campaignCode} AND c.enabled))`,
      ),
    )
    .orderBy(asc(siteBanners.position))
    .limit(50);
}

export function findSocialLinks(executor: Executor, siteId: bigint) {
  return executor
    .select()
    .from(siteSocialLinks)
    .where(eq(siteSocialLinks.siteId, siteId))
    .orderBy(asc(siteSocialLinks.position))
    .limit(50);
}
