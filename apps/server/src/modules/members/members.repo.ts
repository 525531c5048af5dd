import { and, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { rowsOf } from '../../db/sql.ts';
import { members, profilePictures, type TMemberRow } from './members.schema.ts';

/** SQL for members. Every function takes the executor (database or transaction) it runs in. */

export async function findMemberById(
  executor: Executor,
  siteId: bigint,
  id: bigint,
): Promise<TMemberRow | null> {
  const rows = await executor
    .select()
    .from(members)
    .where(and(eq(members.siteId, siteId), eq(members.id, id)))
    .limit(1);
  return rows[0] ?? null;
}

/** Usernames are unique per site regardless of case. */
export async function findMemberByUsername(
  executor: Executor,
  siteId: bigint,
  username: string,
): Promise<TMemberRow | null> {
  const rows = await executor
    .select()
    .from(members)
    .where(and(eq(members.siteId, siteId), eq(members.usernameLower, username.toLowerCase())))
    .limit(1);
  return rows[0] ?? null;
}

export async function findMemberByInviteCode(
  executor: Executor,
  siteId: bigint,
  inviteCode: string,
): Promise<TMemberRow | null> {
  const rows = await executor
    .select()
    .from(members)
    .where(and(eq(members.siteId, siteId), eq(members.inviteCode, inviteCode.toUpperCase())))
    .limit(1);
  return rows[0] ?? null;
}

export type TNewMember = typeof members.$inferInsert;

export async function insertMember(executor: Executor, row: TNewMember): Promise<TMemberRow> {
  const [inserted] = await executor.insert(members).values(row).returning();
  return inserted!;
}

export async function setProfilePicture(
  executor: Executor,
  siteId: bigint,
  memberId: bigint,
  pictureId: bigint,
): Promise<void> {
  await executor
    .update(members)
    .set({ profilePictureId: pictureId, updatedAt: sql`now()` })
    .where(and(eq(members.siteId, siteId), eq(members.id, memberId)));
}

export async function findProfilePictureUrl(
  executor: Executor,
  pictureId: bigint | null,
): Promise<string | null> {
  if (pictureId === null) return null;
  const rows = await executor
    .select({ url: profilePictures.url })
    .from(profilePictures)
    .where(eq(profilePictures.id, pictureId))
    .limit(1);
  return rows[0]?.url ?? null;
}

/** One account per CPF on each site (the unique index members_site_cpf has the final word). */
export async function isCpfTaken(executor: Executor, siteId: bigint, cpf: string): Promise<boolean> {
  const rows = await rowsOf<{ found: number }>(
    executor,
    sql`SELECT 1 AS found FROM members WHERE site_id = ${siteId.toString()}::bigint AND cpf = ${cpf} LIMIT 1`,
  );
  return rows.length > 0;
}

/** The id of the default avatar, as a subquery of an insert (the demo player's). */
export const DEFAULT_AVATAR_ID = sql`(SELECT id FROM profile_pictures WHERE url = '/media/avatars/male-1.svg')`;
