import { type SQL, sql } from 'drizzle-orm';
import {
  type BonusGrant,
  categoryWeight,
  type StakeInput,
  toGrant,
  type WinInput,
} from '../bonus/grant-model.ts';
import { GRANT_COLUMNS, type TGrantRaw } from '../bonus/grants.repo.ts';
import { assertInvariant } from '../wallet.errors.ts';
import type { TJson } from '../wallet.schema.ts';
import { type PreparedTransfer, prepareTransfer } from './request.ts';

/**
 * The parts of a bonus holder's stake and of a cash win a group posts itself (ADR 028): the cash
 * stake (feeding a grant), the grants a group read locks, the fed grants' wagering its write
 * moves, the cash win.
 */

/**
 * A stake all from cash under the bet's key, as `stakeWithBonus` posts it for a member without an
 * active grant (and, naming the fed grant in its metadata, for one whose cash covers it), for a
 * group commit to plan (ADR 023, 026, 027, 028).
 */
export function cashStake(input: StakeInput & { metadata: { [key: string]: TJson } }): PreparedTransfer {
  return prepareTransfer({
    siteId: input.siteId,
    kind: 'bet',
    from: { memberId: input.memberId, account: 'cash' },
    to: { system: 'house' },
    amountMinor: input.amountMinor,
    idempotencyKey: input.idempotencyKey,
    reference: input.reference,
    metadata: {
      ...input.metadata,
      stakeMinor: input.amountMinor.toString(),
      category: input.category,
      part: 'cash',
    },
  });
}

/** The wagering a group's stake adds to the grant it feeds, checked by the group's write. */
export type TFedGrant = { grantId: bigint; doneBeforeMinor: bigint; countedMinor: bigint };

/**
 * The stake of a member holding active grants, for a group commit (ADR 028), in the one case the
 * group posts itself: cash alone covers it, no grant still wagering has a max bet below it, and its
 * wagering does not complete the grant it feeds. Then `stakeWithBonus` would post one transfer, all
 * from cash under the bet's key, naming the fed grant (the earliest to expire), and add the stake's
 * weighted amount to that grant's wagering: this is that transfer and that wagering. Null in every
 * other case (a bonus part, BONUS_MAX_BET, a conversion): the bet is `stakeWithBonus`'s to place.
 * `grants` are the member's active grants in lock order (expiry, id), `cashMinor` its cash now.
 */
export function cashStakeFeedingGrant(
  input: StakeInput & { metadata: { [key: string]: TJson } },
  grants: readonly BonusGrant[],
  cashMinor: bigint,
): { stake: PreparedTransfer; fed: TFedGrant } | null {
  const fed = grants[0];
  if (!fed || cashMinor < input.amountMinor) return null;
  for (const grant of grants) {
    const wagering = grant.wageringDoneMinor < grant.wageringRequiredMinor;
    if (wagering && grant.maxBetMinor !== null && input.amountMinor > grant.maxBetMinor) return null;
  }
  const counted = (input.amountMinor * categoryWeight(fed.terms, input.category)) / 100n;
  if (fed.wageringDoneMinor + counted >= fed.wageringRequiredMinor) return null;
  return {
    stake: cashStake({ ...input, metadata: { ...input.metadata, fedGrantId: fed.id.toString() } }),
    fed: { grantId: fed.id, doneBeforeMinor: fed.wageringDoneMinor, countedMinor: counted },
  };
}

/**
 * A group read's rows (`what` = 'grant') locking the active grants of its members, in the order
 * every path takes a member's grants (expiry, id); written after the members' accounts are locked,
 * as `lockForMove` takes them.
 */
export function groupGrantRows(memberIds: readonly bigint[]): SQL {
  return sql`SELECT 'grant' AS what, to_jsonb(grants) AS row FROM (
      SELECT ${GRANT_COLUMNS} FROM bonus_grants
      WHERE member_id = ANY(${`{${memberIds.join(',')}}`}::bigint[]) AND status = 'active'
      ORDER BY expires_at, id FOR NO KEY UPDATE) grants`;
}

/** The grants of `groupGrantRows` by member, each member's in lock order. */
export function groupGrantsOf(rows: readonly { what: string; row: unknown }[]): Map<bigint, BonusGrant[]> {
  const byMember = new Map<bigint, BonusGrant[]>();
  for (const { what, row } of rows) {
    if (what !== 'grant') continue;
    const grant = toGrant(row as TGrantRaw);
    const list = byMember.get(grant.memberId);
    if (list) list.push(grant);
    else byMember.set(grant.memberId, [grant]);
  }
  return byMember;
}

/**
 * A CTE (`fed`) and its result rows ('fed') for a group's write statement: the wagering of each
 * grant the group's stakes feed moves on, only from the value the group read under its lock (so the write's rows
 * show every grant moved, or the group is not the one its plan was made for).
 */
export function fedGrantWrites(stakes: readonly { fed: TFedGrant | null }[]): {
  cte: SQL;
  rows: SQL;
  check: (written: readonly { what: string }[]) => void;
} {
  const feds = stakes.flatMap(({ fed }) => (fed ? [fed] : []));
  const json = JSON.stringify(
    feds.map((f) => ({
      id: f.grantId.toString(),
      done: f.doneBeforeMinor.toString(),
      counted: f.countedMinor.toString(),
    })),
  );
  return {
    cte: sql`fed AS (
          UPDATE bonus_grants g SET wagering_done_minor = g.wagering_done_minor + f.counted
          FROM jsonb_to_recordset(${json}::jsonb) AS f(id bigint, done bigint, counted bigint)
          WHERE g.id = f.id AND g.status = 'active' AND g.wagering_done_minor = f.done
          RETURNING g.id)`,
    rows: sql`SELECT 'fed' AS what, jsonb_build_object('id', id::text) AS row FROM fed`,
    // Locked by the group's read, so each grant's wagering was still the value its plan started from.
    check: (written) =>
      assertInvariant(
        written.filter((row) => row.what === 'fed').length === feds.length,
        'every fed grant took its wagering',
      ),
  };
}

/**
 * The win (or refund) of a stake paid in cash alone, as `payWin` posts it: all of it to cash, under
 * the win's key, for a group commit to plan (ADR 023, 026, 027).
 */
export function cashWin(input: WinInput & { metadata: { [key: string]: TJson } }): PreparedTransfer {
  return prepareTransfer({
    siteId: input.siteId,
    kind: input.kind ?? 'win',
    from: { system: 'house' },
    to: { memberId: input.memberId, account: 'cash' },
    amountMinor: input.amountMinor,
    idempotencyKey: input.idempotencyKey,
    reference: input.reference,
    // A refund gives back the wagering its stake lowered, on its first transfer (as `payWin`).
    ...(input.wageringAddMinor && input.wageringAddMinor > 0n
      ? { wageringAddMinor: input.wageringAddMinor }
      : {}),
    metadata: {
      ...input.metadata,
      winMinor: input.amountMinor.toString(),
      stakeKey: input.stakeKey,
      part: 'cash',
    },
  });
}
