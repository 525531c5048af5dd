import { formatMinor, type TUserInfo } from '@sorte/contract';
import type { TSite } from '../../core/site.ts';
import type { Executor } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import { pendingTerms } from '../terms/terms.service.ts';
import { getMemberBalances, type TMemberBalances } from './member-balances.ts';
import { findMemberById, findProfilePictureUrl } from './members.repo.ts';
import type { TMemberRow } from './members.schema.ts';

/** VIP names by level (spec §6); level 0 is a member who has not reached Bronze yet. */
const LEVEL_NAMES = ['Member', 'Bronze', 'Silver', 'Gold', 'Platinum', 'Diamond'] as const;

export function levelName(level: number): string {
  return LEVEL_NAMES[Math.max(0, Math.min(level, LEVEL_NAMES.length - 1))]!;
}

/** The user info of spec §3 from a member row; secrets never leave (bridge fields are always null). */
export function toUserInfo(
  member: TMemberRow,
  site: TSite,
  balances: TMemberBalances,
  profileUrl: string | null,
): TUserInfo {
  return {
    id: Number(member.id),
    name: member.username,
    d7_map: null,
    day7_id: null,
    bridge_password_token: null,
    bridge_password: null,
    nickname: member.nickname,
    realname: member.realname,
    email: member.email,
    phone: member.phone,
    qq: null,
    gender: member.gender,
    invite_code: member.inviteCode,
    money: formatMinor(balances.moneyMinor),
    fs_money: formatMinor(balances.fsMoneyMinor),
    ml_money: formatMinor(balances.mlMoneyMinor),
    total_money: formatMinor(balances.totalMoneyMinor),
    total_slot_money: formatMinor(balances.totalSlotMoneyMinor),
    total_live_money: formatMinor(balances.totalLiveMoneyMinor),
    score: member.score,
    register_ip: member.registerIp,
    register_area: member.registerArea,
    register_site: site.code,
    status: member.status,
    is_tips_on: member.isTipsOn,
    is_in_on: member.isInOn,
    is_trans_on: member.isTransOn,
    is_demo: member.isDemo ? 1 : 0,
    lang: member.lang,
    top_id: member.topId === null ? null : Number(member.topId),
    agent_id: member.agentId === null ? null : Number(member.agentId),
    total_credit: formatMinor(balances.totalCreditMinor),
    used_credit: formatMinor(balances.usedCreditMinor),
    level: member.level,
    slot_level: member.slotLevel,
    live_level: member.liveLevel,
    level_name: levelName(member.level),
    created_at: member.createdAt.toISOString(),
    updated_at: member.updatedAt.toISOString(),
    deleted_at: member.deletedAt ? member.deletedAt.toISOString() : null,
    site: site.code,
    is_ms_reg: 0,
    has_qk_pwd: member.qkPwdHash !== null,
    profileurl: profileUrl,
  };
}

/** The full user info of a member of this site (balances from the one balance reader). */
export async function getUserInfo(executor: Executor, site: TSite, memberId: bigint): Promise<TUserInfo> {
  const member = await findMemberById(executor, site.id, memberId);
  if (!member) throw new AppError('UNAUTHENTICATED');
  const [balances, profileUrl] = await Promise.all([
    getMemberBalances(executor, site.id, member.id),
    findProfilePictureUrl(executor, member.profilePictureId),
  ]);
  return {
    ...toUserInfo(member, site, balances, profileUrl),
    terms_pending: await pendingTerms(executor, member.id),
  };
}
