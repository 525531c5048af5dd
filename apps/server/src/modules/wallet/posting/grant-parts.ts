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
 * A grant's balance as a group's bonus parts move it (ADR 028): a stake's part leaves it, a win's
 * share comes back to it. `balanceBeforeMinor` and `doneBeforeMinor` are what the group's read
 * locked.
 */
export type TGrantMove = {
  grantId: bigint;
  balanceBeforeMinor: bigint;
  doneBeforeMinor: bigint;
  balanceDeltaMinor: bigint;
};

type TGrantWrite = {
  id: string;
  done: string;
  balance: string | null;
  counted: bigint;
  delta: bigint;
  /** Which of the group's stakes moves it. */
  by: number;
};

/**
 * The fed wagering and balance moves of a group, one row per grant. One stake moves a grant: a
 * second stake feeding the grant another fed would be planned on wagering the first moved, which
 * the plans do not follow, so such a group fails here and goes one by one.
 */
function grantWritesOf(
  stakes: readonly { fed: TFedGrant | null; moves?: readonly TGrantMove[] }[],
): TGrantWrite[] {
  const byGrant = new Map<bigint, TGrantWrite>();
  const rowOf = (by: number, grantId: bigint, doneBefore: bigint): TGrantWrite => {
    const row = byGrant.get(grantId) ?? {
      id: grantId.toString(),
      done: doneBefore.toString(),
      balance: null,
      counted: 0n,
      delta: 0n,
      by,
    };
    assertInvariant(row.by === by, `grant ${grantId} moved by one stake of the group`);
    byGrant.set(grantId, row);
    return row;
  };
  stakes.forEach(({ fed, moves }, by) => {
    if (fed) rowOf(by, fed.grantId, fed.doneBeforeMinor).counted += fed.countedMinor;
    for (const move of moves ?? []) {
      const row = rowOf(by, move.grantId, move.doneBeforeMinor);
      row.balance = move.balanceBeforeMinor.toString();
      row.delta += move.balanceDeltaMinor;
    }
  });
  return [...byGrant.values()];
}

/**
 * A CTE (`fed`) and its result rows ('fed') for a group's write statement: the wagering of each
 * grant the group's stakes feed moves on, and the balance of each grant their bonus parts move,
 * only from the values the group read under its lock (so the write's rows show every grant moved,
 * or the group is not the one its plan was made for).
 */
export function fedGrantWrites(stakes: readonly { fed: TFedGrant | null; moves?: readonly TGrantMove[] }[]): {
  cte: SQL;
  rows: SQL;
  check: (written: readonly { what: string }[]) => void;
} {
  const grants = grantWritesOf(stakes);
  const json = JSON.stringify(
    grants.map(({ id, done, balance, counted, delta }) => ({
      id,
      done,
      balance,
      counted: counted.toString(),
      delta: delta.toString(),
    })),
  );
  return {
    cte: sql`fed AS (
          UPDATE bonus_grants g SET wagering_done_minor = g.wagering_done_minor + f.counted,
            balance_minor = g.balance_minor + f.delta
          FROM jsonb_to_recordset(${json}::jsonb) AS f(id bigint, done bigint, balance bigint, counted bigint, delta bigint)
          WHERE g.id = f.id AND g.status = 'active' AND g.wagering_done_minor = f.done
            AND (f.balance IS NULL OR g.balance_minor = f.balance)
          RETURNING g.id)`,
    rows: sql`SELECT 'fed' AS what, jsonb_build_object('id', id::text) AS row FROM fed`,
    // Locked by the group's read, so each grant was still at the values its plan started from.
    check: (written) =>
      assertInvariant(
        written.filter((row) => row.what === 'fed').length === grants.length,
        'every fed grant took its wagering and balance',
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
