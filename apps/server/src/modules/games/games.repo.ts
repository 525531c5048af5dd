import type { TGameCategory, TGameTag } from '@sorte/contract';
import { and, asc, count, desc, eq, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { containsPattern } from '../../db/sql.ts';
import {
  gameProviders,
  games,
  memberFavoriteGames,
  memberRecentGames,
  siteGames,
  type TGameProviderRow,
  type TGameRow,
} from './games.schema.ts';

/** A game row with its provider, as the catalogue shows it. */
export type TCatalogueGame = TGameRow & { providerCode: string; providerName: string };

export type TGameFilter = {
  category?: TGameCategory | undefined;
  providerCode?: string | undefined;
  /** Part of the name, matched case-insensitively. */
  search?: string | undefined;
  tag?: TGameTag | undefined;
  /** Any of these tags. */
  anyTags?: readonly TGameTag[] | undefined;
};

/** The site's category and tags of a game: its own (site_games, migration 0039), else the catalogue's. */
const siteCategory = sql`coalesce(${siteGames.category}, ${games.category})`;
const siteTags = sql`coalesce(${siteGames.tags}, ${games.tags})`;

function visibleOn(filter: TGameFilter): SQL {
  const conditions: SQL[] = [
    eq(games.enabled, true),
    // Every query left-joins the site's override row (site_games) on this site only.
    sql`coalesce(${siteGames.enabled}, true)`,
  ];
  if (filter.category) conditions.push(sql`${siteCategory} = ${filter.category}`);
  if (filter.providerCode) conditions.push(eq(gameProviders.code, filter.providerCode));
  if (filter.search) conditions.push(sql`${games.name} ILIKE ${containsPattern(filter.search)}`);
  if (filter.tag) conditions.push(sql`${filter.tag} = ANY(${siteTags})`);
  if (filter.anyTags?.length) {
    conditions.push(
      sql`${siteTags} && ARRAY[${sql.join(
        filter.anyTags.map((t) => sql`${t}`),
        sql`, `,
      )}]::text[]`,
    );
  }
  return and(...conditions)!;
}

function selectGames(executor: Executor, siteId: bigint) {
  return executor
    .select({
      game: games,
      providerCode: gameProviders.code,
      providerName: gameProviders.name,
      siteCategory: siteGames.category,
      siteTags: siteGames.tags,
    })
    .from(games)
    .innerJoin(gameProviders, eq(gameProviders.id, games.providerId))
    .leftJoin(siteGames, and(eq(siteGames.gameId, games.id), eq(siteGames.siteId, siteId)));
}

function flatten(
  rows: {
    game: TGameRow;
    providerCode: string;
    providerName: string;
    siteCategory: TGameRow['category'] | null;
    siteTags: TGameRow['tags'] | null;
  }[],
): TCatalogueGame[] {
  return rows.map((r) => ({
    ...r.game,
    category: r.siteCategory ?? r.game.category,
    tags: r.siteTags ?? r.game.tags,
    providerCode: r.providerCode,
    providerName: r.providerName,
  }));
}

const siteOrder = sql`coalesce(${siteGames.position}, ${games.position})`;

export async function findGames(
  executor: Executor,
  siteId: bigint,
  filter: TGameFilter,
  page: { offset: number; limit: number; order?: 'lobby' | 'popular' | 'newest' },
): Promise<TCatalogueGame[]> {
  const order =
    page.order === 'popular'
      ? [desc(sql`('popular' = ANY(${siteTags}))`), desc(games.popularity), asc(games.id)]
      : page.order === 'newest'
        ? [desc(sql`('new' = ANY(${siteTags}))`), asc(siteOrder), asc(games.id)]
        : [asc(siteOrder), asc(games.id)];
  const rows = await selectGames(executor, siteId)
    .where(visibleOn(filter))
    .orderBy(...order)
    .limit(page.limit)
    .offset(page.offset);
  return flatten(rows);
}

export async function countGames(executor: Executor, siteId: bigint, filter: TGameFilter): Promise<number> {
  const [row] = await executor
    .select({ n: count() })
    .from(games)
    .innerJoin(gameProviders, eq(gameProviders.id, games.providerId))
    .leftJoin(siteGames, and(eq(siteGames.gameId, games.id), eq(siteGames.siteId, siteId)))
    .where(visibleOn(filter));
  return Number(row?.n ?? 0);
}

/** Providers with at least one game visible on the site (optionally in one category). */
export async function findProviders(
  executor: Executor,
  siteId: bigint,
  category: TGameCategory | undefined,
): Promise<(TGameProviderRow & { gameCount: number })[]> {
  const rows = await executor
    .select({ provider: gameProviders, gameCount: count(games.id) })
    .from(gameProviders)
    .innerJoin(games, eq(games.providerId, gameProviders.id))
    .leftJoin(siteGames, and(eq(siteGames.gameId, games.id), eq(siteGames.siteId, siteId)))
    .where(visibleOn({ category }))
    .groupBy(gameProviders.id)
    .orderBy(asc(gameProviders.position), asc(gameProviders.id));
  return rows.map((r) => ({ ...r.provider, gameCount: Number(r.gameCount) }));
}

/** One visible game by id, by code, or by exact name (optionally of one provider). */
export async function findGame(
  executor: Executor,
  siteId: bigint,
  by: { id?: bigint; name?: string; providerCode?: string },
): Promise<TCatalogueGame | null> {
  const conditions: SQL[] = [visibleOn({ providerCode: by.providerCode })];
  if (by.id !== undefined) conditions.push(eq(games.id, by.id));
  if (by.name !== undefined) {
    conditions.push(
      sql`(${games.code} = ${by.name.toLowerCase()} OR lower(${games.name}) = lower(${by.name}))`,
    );
  }
  const rows = await selectGames(executor, siteId)
    .where(and(...conditions))
    .orderBy(asc(siteOrder), asc(games.id))
    .limit(1);
  return flatten(rows)[0] ?? null;
}

export async function findFavoriteGames(
  executor: Executor,
  siteId: bigint,
  memberId: bigint,
  category: TGameCategory | undefined,
  limit: number,
): Promise<TCatalogueGame[]> {
  const rows = await selectGames(executor, siteId)
    .innerJoin(
      memberFavoriteGames,
      and(eq(memberFavoriteGames.gameId, games.id), eq(memberFavoriteGames.memberId, memberId)),
    )
    .where(visibleOn({ category }))
    .orderBy(desc(memberFavoriteGames.createdAt), desc(games.id))
    .limit(limit);
  return flatten(rows);
}

export async function insertFavorite(executor: Executor, memberId: bigint, gameId: bigint): Promise<void> {
  await executor.insert(memberFavoriteGames).values({ memberId, gameId }).onConflictDoNothing();
}

export async function deleteFavorite(executor: Executor, memberId: bigint, gameId: bigint): Promise<void> {
  await executor
    .delete(memberFavoriteGames)
    .where(and(eq(memberFavoriteGames.memberId, memberId), eq(memberFavoriteGames.gameId, gameId)));
}

export async function countFavorites(executor: Executor, memberId: bigint): Promise<number> {
  const [row] = await executor
    .select({ n: count() })
    .from(memberFavoriteGames)
    .where(eq(memberFavoriteGames.memberId, memberId));
  return Number(row?.n ?? 0);
}

export async function findRecentGames(
  executor: Executor,
  siteId: bigint,
  memberId: bigint,
  limit: number,
): Promise<TCatalogueGame[]> {
  const rows = await selectGames(executor, siteId)
    .innerJoin(
      memberRecentGames,
      and(eq(memberRecentGames.gameId, games.id), eq(memberRecentGames.memberId, memberId)),
    )
    .where(visibleOn({}))
    .orderBy(desc(memberRecentGames.playedAt), desc(games.id))
    .limit(limit);
  return flatten(rows);
}

/** Marks a game as just played by the member (launch or bet). */
export async function touchRecentGame(executor: Executor, memberId: bigint, gameId: bigint): Promise<void> {
  await executor
    .insert(memberRecentGames)
    .values({ memberId, gameId })
    .onConflictDoUpdate({
      target: [memberRecentGames.memberId, memberRecentGames.gameId],
      set: { playedAt: sql`now()` },
    });
}
