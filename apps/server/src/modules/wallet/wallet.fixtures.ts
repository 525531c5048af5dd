import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { rowsOf } from '../../db/sql.ts';
import { openMemberAccounts } from './accounts.ts';
import { transfer } from './wallet.service.ts';

/**
 * Test and benchmark fixtures: a throwaway site and members inserted with plain SQL (registration
 * lives in another module), each with its wallet accounts opened. Names are random so runs and
 * test files never collide on a shared database.
 */
export async function createTestSite(executor: Executor): Promise<bigint> {
  const code = `w-${randomBytes(6).toString('hex')}`;
  const rows = await rowsOf<{ id: unknown }>(
    executor,
    sql`INSERT INTO sites (code, name, jurisdiction, languages, logo, favicon)
        VALUES (${code}, ${`Wallet test ${code}`}, 'intl', ARRAY['en'], '/logo.svg', '/favicon.ico')
        RETURNING id`,
  );
  return BigInt(String(rows[0]!.id));
}

export async function createTestMember(executor: Executor, siteId: bigint): Promise<bigint> {
  const suffix = randomBytes(6).toString('hex');
  const rows = await rowsOf<{ id: unknown }>(
    executor,
    sql`INSERT INTO members (site_id, username, password_hash, realname, phone, invite_code)
        VALUES (${siteId.toString()}::bigint, ${`w${suffix}`}, 'not-a-login', 'Wallet Test', '+5511999999999',
                ${`i${suffix}`})
        RETURNING id`,
  );
  const memberId = BigInt(String(rows[0]!.id));
  await openMemberAccounts(executor, { siteId, memberId });
  return memberId;
}

/** A test member with `cashMinor` deposited to cash (psp_clearing → cash, keyed by the member). */
export async function createFundedTestMember(
  executor: Executor,
  siteId: bigint,
  cashMinor: bigint,
): Promise<bigint> {
  const memberId = await createTestMember(executor, siteId);
  await transfer(executor, {
    siteId,
    kind: 'deposit',
    from: { system: 'psp_clearing' },
    to: { memberId, account: 'cash' },
    amountMinor: cashMinor,
    idempotencyKey: `test-fund-${memberId}`,
  });
  return memberId;
}
