import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { rowsOf } from '../../db/sql.ts';
import { openMemberAccounts, openSiteAccounts } from '../wallet/accounts.ts';
import { transfer } from '../wallet/wallet.service.ts';

/**
 * Money events with known patterns among normal play, for the measured test and the benchmark
 * (ADR 040): a br site of its own, clean players whose play no rule should flag, and players who
 * each show one pattern. The outbox rows are inserted as the money transactions write them (with
 * their times in the past where the pattern needs a history); stakes and wins go through the wallet.
 */

const DAY = 86_400_000;
const HOUR = 3_600_000;

export type TPattern =
  | 'large_amount'
  | 'structuring'
  | 'quick_cashout'
  | 'shared_payer_cpf'
  | 'shared_pix_key'
  | 'shared_device'
  | 'payer_cpf_mismatch'
  | 'disproportionate_win'
  | 'pep'
  | 'surge';

/** The rule each pattern must raise, and on which of its accounts (a shared key: the last one). */
export const PATTERN_RULE: Record<TPattern, string> = {
  large_amount: 'large_amount',
  structuring: 'structuring',
  quick_cashout: 'quick_cashout',
  shared_payer_cpf: 'shared_identifier',
  shared_pix_key: 'shared_identifier',
  shared_device: 'shared_identifier',
  payer_cpf_mismatch: 'payer_cpf_mismatch',
  disproportionate_win: 'disproportionate_win',
  pep: 'pep',
  surge: 'surge',
};

export type TSeeded = {
  siteId: bigint;
  clean: bigint[];
  /** Each seeded pattern: its kind and the member that must be alerted for it. */
  patterns: { pattern: TPattern; memberId: bigint }[];
  moneyEvents: number;
};

type TOutboxSeed = {
  memberId: bigint;
  kind: 'deposit' | 'withdrawal' | 'login';
  amountMinor: bigint;
  identifiers: Record<string, string>;
  at: Date;
};

function cpfOf(n: number): string {
  const digits = String(100_000_000 + n)
    .slice(-9)
    .split('')
    .map(Number);
  for (const length of [9, 10]) {
    const sum = digits.slice(0, length).reduce((acc, d, i) => acc + d * (length + 1 - i), 0);
    const rest = (sum * 10) % 11;
    digits.push(rest === 10 ? 0 : rest);
  }
  return digits.join('');
}

async function brSite(db: Db): Promise<bigint> {
  const code = `aml${randomBytes(5).toString('hex')}`;
  const rows = await rowsOf<{ id: string }>(
    db,
    sql`INSERT INTO sites (code, name, jurisdiction, languages, logo, favicon)
        VALUES (${code}, ${`AML ${code}`}, 'br', ARRAY['pt'], '/logo.svg', '/favicon.ico') RETURNING id::text AS id`,
  );
  const siteId = BigInt(rows[0]!.id);
  await openSiteAccounts(db, siteId);
  return siteId;
}

/** `count` members of the site, created `ageDays` ago, each with a CPF and 100,000.00 of cash. */
async function members(
  db: Db,
  siteId: bigint,
  count: number,
  ageDays: number,
  cpfBase: number,
): Promise<bigint[]> {
  const ids: bigint[] = [];
  for (let i = 0; i < count; i++) {
    const suffix = randomBytes(6).toString('hex');
    const rows = await rowsOf<{ id: string }>(
      db,
      sql`INSERT INTO members (site_id, username, password_hash, realname, phone, invite_code, cpf, created_at)
          VALUES (${siteId.toString()}::bigint, ${`a${suffix}`}, 'not-a-login', 'Maria Teste', '+5511999999999',
                  ${`i${suffix}`}, ${cpfOf(cpfBase + i)}, now() - ${`${ageDays} days`}::interval)
          RETURNING id::text AS id`,
    );
    const memberId = BigInt(rows[0]!.id);
    await openMemberAccounts(db, { siteId, memberId });
    await transfer(db, {
      siteId,
      kind: 'deposit',
      from: { system: 'psp_clearing' },
      to: { memberId, account: 'cash' },
      amountMinor: 10_000_000n,
      idempotencyKey: `aml-seed-fund:${memberId}`,
    });
    ids.push(memberId);
  }
  return ids;
}

export async function cpfOfMember(db: Db, memberId: bigint): Promise<string> {
  const rows = await rowsOf<{ cpf: string }>(
    db,
    sql`SELECT cpf FROM members WHERE id = ${memberId.toString()}::bigint`,
  );
  return rows[0]!.cpf;
}

/** Inserts outbox rows, 500 a statement, with their times (unscreened). */
export async function insertOutboxRows(db: Db, siteId: bigint, rows: readonly TOutboxSeed[]): Promise<void> {
  for (let i = 0; i < rows.length; i += 500) {
    const values = rows.slice(i, i + 500).map(
      (row, j) =>
        sql`(${siteId.toString()}::bigint, ${row.memberId.toString()}::bigint, ${row.kind}, ${row.amountMinor.toString()}::bigint,
             ${`seed:${i + j}:${randomBytes(4).toString('hex')}`}, ${JSON.stringify(row.identifiers)}::jsonb,
             ${row.at.toISOString()}::timestamptz)`,
    );
    await db.execute(
      sql`INSERT INTO aml_outbox (site_id, member_id, kind, amount_minor, reference, identifiers, created_at)
          VALUES ${sql.join(values, sql`, `)}`,
    );
  }
}

let roundNo = 0;
async function round(db: Db, siteId: bigint, memberId: bigint, stake: bigint, win: bigint): Promise<number> {
  roundNo += 1;
  const reference = `round:aml-seed-${memberId}-${roundNo}`;
  const post = (kind: 'bet' | 'win', amountMinor: bigint) =>
    transfer(db, {
      siteId,
      kind,
      from: kind === 'bet' ? { memberId, account: 'cash' } : { system: 'house' },
      to: kind === 'bet' ? { system: 'house' } : { memberId, account: 'cash' },
      amountMinor,
      idempotencyKey: `aml-seed:${reference}:${kind}`,
      reference,
    });
  await post('bet', stake);
  if (win > 0n) await post('win', win);
  return win > 0n ? 2 : 1;
}

const PER_PATTERN = 10;

/**
 * A clean player: a deposit every few days for two months (never near a threshold), play worth
 * more than what they took out, a withdrawal, a login from their own device. Near misses no rule
 * may flag: two players of a household share an address (the rule wants three others), and one in
 * 25 wins 4,000.00 on 200.00 (20x; the rule wants 100x from 5,000.00).
 */
async function cleanPlayer(
  db: Db,
  siteId: bigint,
  memberId: bigint,
  n: number,
  out: TOutboxSeed[],
  now: number,
) {
  const cpf = await cpfOfMember(db, memberId);
  const amount = BigInt(5_000 + (n % 17) * 4_000);
  for (let day = 55; day >= 1; day -= 5) {
    out.push({
      memberId,
      kind: 'deposit',
      amountMinor: amount,
      identifiers: { payer_cpf: cpf },
      at: new Date(now - day * DAY),
    });
  }
  const household = Math.floor(n / 2);
  const ip = `10.${household >> 8}.${household & 255}.7`;
  out.push({
    memberId,
    kind: 'login',
    amountMinor: 0n,
    identifiers: { ip, device: `clean-device-${n}` },
    at: new Date(now - HOUR),
  });
  let events = 0;
  for (let i = 0; i < 8; i++)
    events += await round(db, siteId, memberId, amount / 2n, i % 3 === 0 ? amount : 0n);
  if (n % 25 === 0) events += await round(db, siteId, memberId, 20_000n, 400_000n);
  return events;
}

type TSeedContext = { db: Db; siteId: bigint; now: number; out: TOutboxSeed[]; cpfBase: () => number };
type TSeeder = (ctx: TSeedContext, i: number) => Promise<{ memberId: bigint; ledgerEvents: number }>;

const accounts = (ctx: TSeedContext, count = 1) => members(ctx.db, ctx.siteId, count, 60, ctx.cpfBase());
const deposit = (
  memberId: bigint,
  amountMinor: bigint,
  at: number,
  identifiers: Record<string, string> = {},
) => ({ memberId, kind: 'deposit', amountMinor, identifiers, at: new Date(at) }) as const;

/** Each pattern: the accounts it needs, its events, and the account that must be alerted. */
const SEEDERS: Record<TPattern, TSeeder> = {
  large_amount: async (ctx) => {
    const [memberId] = await accounts(ctx);
    ctx.out.push(deposit(memberId!, 1_200_000n, ctx.now - 2 * HOUR));
    return { memberId: memberId!, ledgerEvents: 0 };
  },
  structuring: async (ctx) => {
    const [memberId] = await accounts(ctx);
    for (const [hours, amount] of [
      [20, 850_000n],
      [10, 900_000n],
      [1, 950_000n],
    ] as const) {
      ctx.out.push(deposit(memberId!, amount, ctx.now - hours * HOUR));
    }
    return { memberId: memberId!, ledgerEvents: 0 };
  },
  quick_cashout: async (ctx) => {
    const [memberId] = await accounts(ctx);
    ctx.out.push(deposit(memberId!, 200_000n, ctx.now - DAY));
    const ledgerEvents = await round(ctx.db, ctx.siteId, memberId!, 5_000n, 0n);
    ctx.out.push({
      memberId: memberId!,
      kind: 'withdrawal',
      amountMinor: 190_000n,
      identifiers: { pix_key: `EVP:quick-${memberId}` },
      at: new Date(ctx.now + 1000),
    });
    return { memberId: memberId!, ledgerEvents };
  },
  shared_payer_cpf: async (ctx, i) => {
    const pair = await accounts(ctx, 2);
    for (const [j, memberId] of pair.entries()) {
      ctx.out.push(deposit(memberId, 20_000n, ctx.now - (3 - j) * HOUR, { payer_cpf: cpfOf(900_000 + i) }));
    }
    return { memberId: pair[1]!, ledgerEvents: 0 };
  },
  shared_pix_key: async (ctx, i) => {
    const pair = await accounts(ctx, 2);
    for (const [j, memberId] of pair.entries()) {
      ctx.out.push({
        memberId,
        kind: 'withdrawal',
        amountMinor: 5_000n,
        identifiers: { pix_key: `EMAIL:mule${i}@example.com` },
        at: new Date(ctx.now - (3 - j) * HOUR),
      });
    }
    return { memberId: pair[1]!, ledgerEvents: 0 };
  },
  shared_device: async (ctx, i) => {
    const trio = await accounts(ctx, 3);
    for (const [j, memberId] of trio.entries()) {
      ctx.out.push({
        memberId,
        kind: 'login',
        amountMinor: 0n,
        identifiers: { device: `farm-device-${i}` },
        at: new Date(ctx.now - (4 - j) * HOUR),
      });
    }
    return { memberId: trio[2]!, ledgerEvents: 0 };
  },
  payer_cpf_mismatch: async (ctx, i) => {
    const [memberId] = await accounts(ctx);
    ctx.out.push(deposit(memberId!, 30_000n, ctx.now - HOUR, { payer_cpf: cpfOf(800_000 + i) }));
    return { memberId: memberId!, ledgerEvents: 0 };
  },
  disproportionate_win: async (ctx) => {
    const [memberId] = await accounts(ctx);
    return {
      memberId: memberId!,
      ledgerEvents: await round(ctx.db, ctx.siteId, memberId!, 1_000n, 600_000n),
    };
  },
  pep: async (ctx) => {
    const [memberId] = await accounts(ctx);
    await ctx.db.execute(
      sql`INSERT INTO member_kyc (member_id, site_id, pep) VALUES (${memberId!.toString()}::bigint, ${ctx.siteId.toString()}::bigint, true)`,
    );
    ctx.out.push({
      memberId: memberId!,
      kind: 'login',
      amountMinor: 0n,
      identifiers: {},
      at: new Date(ctx.now - HOUR),
    });
    return { memberId: memberId!, ledgerEvents: 0 };
  },
  surge: async (ctx) => {
    const [memberId] = await accounts(ctx);
    for (let day = 50; day >= 2; day -= 4) ctx.out.push(deposit(memberId!, 5_000n, ctx.now - day * DAY));
    ctx.out.push(deposit(memberId!, 300_000n, ctx.now - HOUR));
    return { memberId: memberId!, ledgerEvents: 0 };
  },
};

/** Seeds `targetEvents` money events (deposits, withdrawals, stakes, wins) with PER_PATTERN of each pattern. */
export async function seedPatterns(db: Db, targetEvents = 10_000): Promise<TSeeded> {
  const siteId = await brSite(db);
  let nextCpf = 500_000;
  const ctx: TSeedContext = { db, siteId, now: Date.now(), out: [], cpfBase: () => (nextCpf += 10) };
  const patterns: TSeeded['patterns'] = [];
  let ledgerEvents = 0;
  for (let i = 0; i < PER_PATTERN; i++) {
    for (const [pattern, seed] of Object.entries(SEEDERS) as [TPattern, TSeeder][]) {
      const seeded = await seed(ctx, i);
      ledgerEvents += seeded.ledgerEvents;
      patterns.push({ pattern, memberId: seeded.memberId });
    }
  }
  const clean: bigint[] = [];
  const money = () => ctx.out.filter((row) => row.kind !== 'login').length + ledgerEvents;
  while (money() < targetEvents) {
    const [memberId] = await members(db, siteId, 1, 70, 100_000 + clean.length);
    ledgerEvents += await cleanPlayer(db, siteId, memberId!, clean.length, ctx.out, ctx.now);
    const pixKey = `CPF:${await cpfOfMember(db, memberId!)}`;
    ctx.out.push({
      memberId: memberId!,
      kind: 'withdrawal',
      amountMinor: 3_000n,
      identifiers: { pix_key: pixKey },
      at: new Date(ctx.now + 1000),
    });
    clean.push(memberId!);
  }
  ctx.out.sort((a, b) => a.at.getTime() - b.at.getTime());
  await insertOutboxRows(db, siteId, ctx.out);
  return { siteId, clean, patterns, moneyEvents: money() };
}

/** Recall (seeded patterns alerted with their rule) and precision (alerts on pattern accounts). */
export async function measure(db: Db, seeded: TSeeded) {
  const rows = await rowsOf<{ member_id: string; rule: string }>(
    db,
    sql`SELECT member_id::text AS member_id, rule FROM aml_alerts WHERE site_id = ${seeded.siteId.toString()}::bigint`,
  );
  const hit = new Set(rows.map((row) => `${row.member_id}:${row.rule}`));
  const missed = seeded.patterns.filter((p) => !hit.has(`${p.memberId}:${PATTERN_RULE[p.pattern]}`));
  const cleanSet = new Set(seeded.clean.map(String));
  const onClean = rows.filter((row) => cleanSet.has(row.member_id));
  const cleanAlerted = new Set(onClean.map((row) => row.member_id)).size;
  return {
    patterns: seeded.patterns.length,
    recall: (seeded.patterns.length - missed.length) / seeded.patterns.length,
    missed,
    alerts: rows.length,
    precision: rows.length === 0 ? 1 : (rows.length - onClean.length) / rows.length,
    cleanPlayers: seeded.clean.length,
    cleanAlerted,
  };
}
