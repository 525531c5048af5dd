import type { TProfilePictures } from '@sorte/contract';
import { asc, eq } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { AppError, fieldError } from '../../errors.ts';
import { findMemberById, findProfilePictureUrl, setProfilePicture } from '../members/members.repo.ts';
import { profilePictures } from '../members/members.schema.ts';

export async function listProfilePictures(executor: Executor): Promise<TProfilePictures> {
  const rows = await executor
    .select()
    .from(profilePictures)
    .orderBy(asc(profilePictures.gender), asc(profilePictures.position))
    .limit(200);
  const pick = (gender: 'male' | 'female') =>
    rows.filter((row) => row.gender === gender).map((row) => ({ id: Number(row.id), url: row.url }));
  return { male: pick('male'), female: pick('female') };
}

/**
 * The caller's profile photo. A member_id in the payload is only accepted when it is the caller's
 * own: identity comes from the session.
 */
export async function getOwnProfileUrl(
  executor: Executor,
  siteId: bigint,
  callerId: bigint,
  requestedId: number | undefined,
): Promise<string | null> {
  if (requestedId !== undefined && BigInt(requestedId) !== callerId) throw new AppError('FORBIDDEN');
  const member = await findMemberById(executor, siteId, callerId);
  if (!member) throw new AppError('UNAUTHENTICATED');
  return findProfilePictureUrl(executor, member.profilePictureId);
}

export async function setOwnProfilePicture(
  executor: Executor,
  siteId: bigint,
  callerId: bigint,
  pictureId: number,
): Promise<string> {
  const rows = await executor
    .select({ id: profilePictures.id, url: profilePictures.url })
    .from(profilePictures)
    .where(eq(profilePictures.id, BigInt(pictureId)))
    .limit(1);
  const picture = rows[0];
  if (!picture) throw fieldError('picture_id', 'validation.invalid');
  await setProfilePicture(executor, siteId, callerId, picture.id);
  return picture.url;
}
