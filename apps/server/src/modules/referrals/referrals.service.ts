import { isIP } from 'node:net';
import type { Executor } from '../../db/client.ts';
import type { TJurisdiction } from '../sites/sites.schema.ts';
import { SELF_REFERRAL_SIGNALS, type TIdentitySignal, type TReferralReward } from './referrals.profiles.ts';
import { findBlocks, identityValues, type TReferralBlock, upsertBlocks } from './referrals.repo.ts';

/**
 * Self-referral checks (ADR 030): before a reward for bringing a player is paid, the inviter's and
 * the invitee's identity signals are compared on the server; a pair sharing any is refused, and the
 * refusal is kept with the kinds of signal that matched (never their values) for the operators.
 */

export type TPair = { inviterId: bigint; inviteeId: bigint };

const pairKey = (pair: TPair) => `${pair.inviterId}:${pair.inviteeId}`;

/**
 * The address as a comparable key, or null when it names no client: loopback, private, link-local
 * and carrier-grade NAT ranges are what a proxy in front of us or a carrier's gateway shows, shared
 * by strangers. IPv6 compares its /64, the block one home or phone is given.
 */
export function ipKey(raw: string): string | null {
  const text = raw
    .trim()
    .toLowerCase()
    .replace(/^::ffff:(?=\d+\.)/, '');
  const version = isIP(text);
  if (version === 4) {
    const [a, b] = text.split('.').map(Number) as [number, number];
    const local =
      a === 0 ||
      a === 10 ||
      a === 127 ||
      (a === 100 && b >= 64 && b <= 127) ||
      (a === 169 && b === 254) ||
      (a === 172 && b >= 16 && b <= 31) ||
      (a === 192 && b === 168);
    return local ? null : `ip:${text}`;
  }
  if (version === 6) {
    const groups = expandIpv6(text);
    const first = Number.parseInt(groups[0]!, 16);
    // ::, ::1, fc00::/7 (unique local) and fe80::/10 (link-local) name no client.
    if (groups.every((g, i) => (i < 7 ? g === '0' : g === '0' || g === '1'))) return null;
    if ((first & 0xfe00) === 0xfc00 || (first & 0xffc0) === 0xfe80) return null;
    return `ip:${groups.slice(0, 4).join(':')}`;
  }
  return null;
}

function expandIpv6(text: string): string[] {
  const [head, tail] = text.includes('::') ? text.split('::') : [text, undefined];
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const zeros = tail === undefined ? [] : Array(8 - left.length - right.length).fill('0');
  return [...left, ...zeros, ...right].map((g) => Number.parseInt(g || '0', 16).toString(16));
}

/** Each member's comparable values (signal kept beside each), limited to the profile's signals. */
async function valuesByMember(
  executor: Executor,
  jurisdiction: TJurisdiction,
  siteId: bigint,
  memberIds: readonly bigint[],
): Promise<Map<bigint, Map<string, Set<TIdentitySignal>>>> {
  const wanted = new Set(SELF_REFERRAL_SIGNALS[jurisdiction]);
  const byMember = new Map<bigint, Map<string, Set<TIdentitySignal>>>();
  for (const row of await identityValues(executor, siteId, memberIds)) {
    if (!wanted.has(row.signal)) continue;
    const value = row.signal === 'ip' ? ipKey(row.value) : row.value;
    if (value === null) continue;
    const values = byMember.get(row.memberId) ?? new Map<string, Set<TIdentitySignal>>();
    values.set(value, (values.get(value) ?? new Set()).add(row.signal));
    byMember.set(row.memberId, values);
  }
  return byMember;
}

/**
 * The pairs that share identity signals, each with the kinds of signal on either side of a match
 * (sorted): one read for all pairs, the comparison here.
 */
export async function sharedSignals(
  executor: Executor,
  site: { id: bigint; jurisdiction: TJurisdiction },
  pairs: readonly TPair[],
): Promise<Map<string, TIdentitySignal[]>> {
  const ids = [...new Set(pairs.flatMap((p) => [p.inviterId, p.inviteeId]))];
  const values = await valuesByMember(executor, site.jurisdiction, site.id, ids);
  const shared = new Map<string, TIdentitySignal[]>();
  for (const pair of pairs) {
    const mine = values.get(pair.inviterId);
    const theirs = values.get(pair.inviteeId);
    if (!mine || !theirs) continue;
    const signals = new Set<TIdentitySignal>();
    for (const [value, kinds] of theirs) {
      const match = mine.get(value);
      if (!match) continue;
      for (const kind of [...kinds, ...match]) signals.add(kind);
    }
    if (signals.size > 0) shared.set(pairKey(pair), [...signals].sort());
  }
  return shared;
}

/**
 * The pairs that may not be rewarded (`reward`), with why; each refusal is kept for the operators
 * in the caller's transaction. Pairs that share nothing are absent.
 */
export async function blockedReferrals(
  executor: Executor,
  site: { id: bigint; jurisdiction: TJurisdiction },
  reward: TReferralReward,
  pairs: readonly TPair[],
): Promise<Map<string, TIdentitySignal[]>> {
  const shared = await sharedSignals(executor, site, pairs);
  const blocks: TReferralBlock[] = pairs
    .filter((pair) => shared.has(pairKey(pair)))
    .map((pair) => ({ ...pair, signals: shared.get(pairKey(pair))! }));
  await upsertBlocks(executor, site.id, reward, blocks);
  return shared;
}

export function isBlocked(blocked: Map<string, unknown>, pair: TPair): boolean {
  return blocked.has(pairKey(pair));
}

/** The operators' list of refusals on their site, latest first (usernames and signal kinds only). */
export function listReferralBlocks(executor: Executor, siteId: bigint) {
  return findBlocks(executor, siteId, REFERRAL_BLOCKS_SHOWN);
}

const REFERRAL_BLOCKS_SHOWN = 200;
