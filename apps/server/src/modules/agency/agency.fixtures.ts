import { randomBytes, randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { TJurisdiction } from '../sites/sites.schema.ts';
import { siteDomains, sites } from '../sites/sites.schema.ts';
import { openSiteAccounts } from '../wallet/accounts.ts';
import { transfer } from '../wallet/wallet.service.ts';

/**
 * Test helpers: a site of its own (settlements and rains are once per site and period, so a test
 * that settles needs a site no other test settles), and a member's play written to the ledger as
 * a game's bet and win transfers are.
 */
export async function newSite(app: FastifyInstance, jurisdiction: TJurisdiction) {
  const code = `t${randomBytes(5).toString('hex')}`;
  const db = app.services.db;
  const [site] = await db
    .insert(sites)
    .values({
      code,
      name: `Test ${code}`,
      jurisdiction,
      defaultLang: jurisdiction === 'br' ? 'pt' : 'en',
      languages: ['en', 'pt'],
      logo: '/media/sites/sorte/logo.svg',
      favicon: '/media/sites/sorte/favicon.svg',
      theme: {},
      backgroundVideo: null,
      telegramLink: null,
      minAge: 18,
      categories: ['slots'],
      sessionIdleMinutes: 30,
      status: 1,
    })
    .returning();
  const host = `${code}.localhost`;
  await db.insert(siteDomains).values({ host, siteId: site!.id });
  await openSiteAccounts(db, site!.id);
  return { site: site!, host };
}

/** A member's stake and payout as a game writes them (bet: cash → house; win: house → cash). */
export async function play(
  app: FastifyInstance,
  siteId: bigint,
  memberId: bigint,
  stakeMinor: bigint,
  winMinor: bigint,
) {
  const db = app.services.db;
  await transfer(db, {
    siteId,
    kind: 'bet',
    from: { memberId, account: 'cash' },
    to: { system: 'house' },
    amountMinor: stakeMinor,
    idempotencyKey: `test-bet:${randomUUID()}`,
  });
  if (winMinor > 0n) {
    await transfer(db, {
      siteId,
      kind: 'win',
      from: { system: 'house' },
      to: { memberId, account: 'cash' },
      amountMinor: winMinor,
      idempotencyKey: `test-win:${randomUUID()}`,
    });
  }
}

export async function deposit(app: FastifyInstance, siteId: bigint, memberId: bigint, amountMinor: bigint) {
  await transfer(app.services.db, {
    siteId,
    kind: 'deposit',
    from: { system: 'psp_clearing' },
    to: { memberId, account: 'cash' },
    amountMinor,
    idempotencyKey: `test-deposit:${randomUUID()}`,
  });
}
