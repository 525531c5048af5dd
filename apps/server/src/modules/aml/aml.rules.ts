import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { Executor } from '../../db/client.ts';
import {
  findOthersWith,
  sumOutbox,
  sumStake,
  sumWagered,
  type TIdentifierKind,
  type TMemberFacts,
  type TOutboxKind,
} from './aml.repo.ts';

/**
 * The AML rules (ADR 040). Each rule kind is code; which rules a site runs, with which figures and
 * legal basis, are the rows of `aml_rules` of its jurisdiction profile. A rule row whose params do
 * not parse is refused loudly (the screening run fails), never read with made-up defaults.
 */

export type TEventKind = TOutboxKind | 'win';

/** One event to screen: an outbox row or a ledger win. */
export type TScreenedEvent = {
  kind: TEventKind;
  siteId: bigint;
  memberId: bigint;
  amountMinor: bigint;
  reference: string;
  identifiers: Partial<Record<TIdentifierKind, string>>;
  at: Date;
  /** What the event is, for alerts keyed by event: `outbox:<id>` or `ledger:<id>`. */
  sourceKey: string;
};

export type THit = {
  dedupeKey: string;
  amountMinor: bigint;
  evidence: Record<string, unknown>;
};

type TContext = { db: Executor; event: TScreenedEvent; member: TMemberFacts };

const minor = z
  .number()
  .int()
  .nonnegative()
  .transform((value) => BigInt(value));
const positive = z.number().int().positive();
const moneyKinds = z.array(z.enum(['deposit', 'withdrawal'])).min(1);
const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const ago = (from: Date, ms: number) => new Date(from.getTime() - ms);
const text = (value: bigint) => value.toString();

const largeAmount = {
  readsBackMs: () => 0,
  params: z.object({ threshold_minor: minor, kinds: moneyKinds }),
  async evaluate({ event }: TContext, p: { threshold_minor: bigint; kinds: string[] }): Promise<THit[]> {
    if (!p.kinds.includes(event.kind) || event.amountMinor < p.threshold_minor) return [];
    return [
      {
        dedupeKey: event.sourceKey,
        amountMinor: event.amountMinor,
        evidence: { kind: event.kind, reference: event.reference, threshold_minor: text(p.threshold_minor) },
      },
    ];
  },
};

const structuring = {
  readsBackMs: (p: { window_hours: number }) => p.window_hours * HOUR_MS,
  params: z.object({
    threshold_minor: minor,
    floor_bps: z.number().int().min(1).max(9999),
    min_count: z.number().int().min(2),
    window_hours: positive,
    kinds: moneyKinds,
  }),
  async evaluate(
    { db, event }: TContext,
    p: {
      threshold_minor: bigint;
      floor_bps: number;
      min_count: number;
      window_hours: number;
      kinds: string[];
    },
  ): Promise<THit[]> {
    const floor = (p.threshold_minor * BigInt(p.floor_bps)) / 10_000n;
    const kind = event.kind;
    if ((kind !== 'deposit' && kind !== 'withdrawal') || !p.kinds.includes(kind)) return [];
    if (event.amountMinor < floor || event.amountMinor >= p.threshold_minor) return [];
    const near = await sumOutbox(db, event.memberId, kind, {
      from: ago(event.at, p.window_hours * HOUR_MS),
      to: event.at,
      minAmount: floor,
      belowAmount: p.threshold_minor,
    });
    if (near.count < p.min_count) return [];
    return [
      {
        dedupeKey: event.sourceKey,
        amountMinor: near.sumMinor,
        evidence: {
          kind,
          operations: near.count,
          total_minor: text(near.sumMinor),
          band_minor: [text(floor), text(p.threshold_minor)],
          window_hours: p.window_hours,
        },
      },
    ];
  },
};

const quickCashout = {
  readsBackMs: (p: { window_days: number }) => p.window_days * DAY_MS,
  params: z.object({ window_days: positive, min_deposits_minor: minor, max_wager_share_bps: positive }),
  async evaluate(
    { db, event }: TContext,
    p: { window_days: number; min_deposits_minor: bigint; max_wager_share_bps: number },
  ): Promise<THit[]> {
    if (event.kind !== 'withdrawal') return [];
    const deposits = await sumOutbox(db, event.memberId, 'deposit', {
      from: ago(event.at, p.window_days * DAY_MS),
      to: event.at,
    });
    if (deposits.first === null || deposits.sumMinor < p.min_deposits_minor) return [];
    const wagered = await sumWagered(db, event.memberId, deposits.first, event.at);
    if (wagered * 10_000n >= deposits.sumMinor * BigInt(p.max_wager_share_bps)) return [];
    return [
      {
        dedupeKey: event.sourceKey,
        amountMinor: event.amountMinor,
        evidence: {
          deposits_minor: text(deposits.sumMinor),
          deposits: deposits.count,
          wagered_minor: text(wagered),
          withdrawal_minor: text(event.amountMinor),
          window_days: p.window_days,
          max_wager_share_bps: p.max_wager_share_bps,
        },
      },
    ];
  },
};

const IDENTIFIER_KINDS = ['device', 'ip', 'pix_key', 'payer_cpf'] as const;
const digest = (value: string) => createHash('sha256').update(value).digest('hex').slice(0, 16);

const sharedIdentifier = {
  // Reads who was seen with a value from aml_identifiers, not the outbox.
  readsBackMs: () => 0,
  params: z.object({
    window_days: positive,
    min_other_accounts: z.partialRecord(z.enum(IDENTIFIER_KINDS), positive),
  }),
  async evaluate(
    { db, event }: TContext,
    p: { window_days: number; min_other_accounts: Partial<Record<TIdentifierKind, number>> },
  ): Promise<THit[]> {
    const hits: THit[] = [];
    for (const kind of IDENTIFIER_KINDS) {
      const value = event.identifiers[kind];
      const min = p.min_other_accounts[kind];
      if (!value || min === undefined) continue;
      const since = ago(event.at, p.window_days * DAY_MS);
      const others = await findOthersWith(db, {
        siteId: event.siteId,
        kind,
        value,
        memberId: event.memberId,
        since,
      });
      if (others.count < min) continue;
      hits.push({
        // One alert per member and value: the same shared key seen again adds nothing.
        dedupeKey: `${kind}:${digest(value)}:${event.memberId}`,
        amountMinor: 0n,
        evidence: { identifier: kind, other_accounts: others.count, other_member_ids: others.memberIds },
      });
    }
    return hits;
  },
};

const payerCpfMismatch = {
  readsBackMs: () => 0,
  params: z.object({}),
  async evaluate({ event, member }: TContext): Promise<THit[]> {
    const payer = event.identifiers.payer_cpf;
    if (event.kind !== 'deposit' || !payer || member.cpf === null || payer === member.cpf) return [];
    return [
      {
        dedupeKey: event.sourceKey,
        amountMinor: event.amountMinor,
        evidence: { reference: event.reference, payer_cpf: payer, account_cpf: member.cpf },
      },
    ];
  },
};

const disproportionateWin = {
  // Reads the round's stake from the ledger.
  readsBackMs: () => 0,
  params: z.object({ min_win_minor: minor, min_multiple: positive }),
  async evaluate(
    { db, event }: TContext,
    p: { min_win_minor: bigint; min_multiple: number },
  ): Promise<THit[]> {
    if (event.kind !== 'win' || event.amountMinor < p.min_win_minor) return [];
    const stake = await sumStake(db, event.memberId, event.reference, event.at);
    if (stake > 0n && event.amountMinor < stake * BigInt(p.min_multiple)) return [];
    return [
      {
        dedupeKey: event.sourceKey,
        amountMinor: event.amountMinor,
        evidence: {
          reference: event.reference,
          win_minor: text(event.amountMinor),
          stake_minor: text(stake),
          min_multiple: p.min_multiple,
        },
      },
    ];
  },
};

const pep = {
  readsBackMs: () => 0,
  params: z.object({}),
  async evaluate({ event, member }: TContext): Promise<THit[]> {
    if (!member.pep) return [];
    return [
      {
        dedupeKey: `member:${event.memberId}`,
        amountMinor: 0n,
        evidence: { source: 'kyc', event: event.kind },
      },
    ];
  },
};

const surge = {
  readsBackMs: (p: { window_hours: number; history_days: number }) =>
    p.window_hours * HOUR_MS + p.history_days * DAY_MS,
  params: z.object({
    window_hours: positive,
    history_days: positive,
    min_history_days: z.number().int().nonnegative(),
    multiple: positive,
    min_amount_minor: minor,
  }),
  async evaluate(
    { db, event, member }: TContext,
    p: {
      window_hours: number;
      history_days: number;
      min_history_days: number;
      multiple: number;
      min_amount_minor: bigint;
    },
  ): Promise<THit[]> {
    if (event.kind !== 'deposit') return [];
    if (event.at.getTime() - member.createdAt.getTime() < p.min_history_days * DAY_MS) return [];
    const windowStart = ago(event.at, p.window_hours * HOUR_MS);
    const recent = await sumOutbox(db, event.memberId, 'deposit', { from: windowStart, to: event.at });
    if (recent.sumMinor < p.min_amount_minor) return [];
    const history = await sumOutbox(db, event.memberId, 'deposit', {
      from: ago(windowStart, p.history_days * DAY_MS),
      to: new Date(windowStart.getTime() - 1),
    });
    // The history as windows of the same length: what the member usually moves in one.
    const windows = BigInt(Math.max(1, Math.floor((p.history_days * 24) / p.window_hours)));
    const usual = history.sumMinor / windows;
    if (recent.sumMinor < usual * BigInt(p.multiple)) return [];
    return [
      {
        dedupeKey: event.sourceKey,
        amountMinor: recent.sumMinor,
        evidence: {
          window_minor: text(recent.sumMinor),
          usual_window_minor: text(usual),
          history_minor: text(history.sumMinor),
          multiple: p.multiple,
        },
      },
    ];
  },
};

type TRuleKind = {
  params: z.ZodType;
  /** How far back from an event the rule reads the outbox (what its retention must keep). */
  // biome-ignore lint/suspicious/noExplicitAny: each rule reads its own parsed params.
  readsBackMs(params: any): number;
  // biome-ignore lint/suspicious/noExplicitAny: each rule reads its own parsed params.
  evaluate(context: TContext, params: any): Promise<THit[]>;
};

/** Every rule kind a row of aml_rules may name (the migration's CHECK lists the same). */
export const RULE_KINDS: Record<string, TRuleKind> = {
  large_amount: largeAmount,
  quick_cashout: quickCashout,
  structuring,
  shared_identifier: sharedIdentifier,
  payer_cpf_mismatch: payerCpfMismatch,
  disproportionate_win: disproportionateWin,
  pep,
  surge,
};

export type TCompiledRule = { rule: string; legalBasis: string; params: unknown; kind: TRuleKind };

/** A rule row made ready to evaluate; throws when the row names no rule kind or its params do not parse. */
export function compileRule(row: {
  jurisdiction: string;
  rule: string;
  params: unknown;
  legalBasis: string;
}): TCompiledRule {
  const kind = RULE_KINDS[row.rule];
  if (!kind) throw new Error(`aml_rules ${row.jurisdiction}/${row.rule}: no such rule`);
  const parsed = kind.params.safeParse(row.params);
  if (!parsed.success) {
    throw new Error(
      `aml_rules ${row.jurisdiction}/${row.rule}: params do not parse: ${parsed.error.message}`,
    );
  }
  return { rule: row.rule, legalBasis: row.legalBasis, params: parsed.data, kind };
}

/** The hits of one rule on one event. */
export function evaluateRule(rule: TCompiledRule, context: TContext): Promise<THit[]> {
  return rule.kind.evaluate(context, rule.params);
}

/** How far back from an event the rule reads the outbox. */
export function outboxLookbackMs(rule: TCompiledRule): number {
  return rule.kind.readsBackMs(rule.params);
}
