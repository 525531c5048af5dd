import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, call, HOSTS, registerPlayer, seededDatabase } from '../../../test/app.ts';
import { type DatabaseKind, databaseKinds } from '../../../test/databases.ts';
import { transfer } from '../wallet/wallet.service.ts';
import { members } from './members.schema.ts';

const kinds = await databaseKinds();

describe.each(kinds)('user info money from the ledger on %s', (kind: DatabaseKind) => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await buildTestApp(kind);
  });
  afterAll(async () => {
    await app.close();
  });

  it('opens wallet accounts at registration and shows ledger balances in /api/auth/me', async () => {
    const { token, user } = await registerPlayer(app, HOSTS.intl);
    expect(user.money).toBe('0.00');
    const { db } = await seededDatabase(kind);
    const memberId = BigInt(user.id);
    const [member] = await db
      .select({ siteId: members.siteId })
      .from(members)
      .where(eq(members.id, memberId));
    await transfer(db, {
      siteId: member!.siteId,
      kind: 'deposit',
      from: { system: 'psp_clearing' },
      to: { memberId, account: 'cash' },
      amountMinor: 12_345n,
      idempotencyKey: `test-deposit-${user.id}`,
      wageringAddMinor: 500n,
    });
    const me = await call(app, { method: 'POST', url: '/api/auth/me', token });
    expect(me.status).toBe(200);
    expect(me.body.data.money).toBe('123.45');
    expect(me.body.data.total_money).toBe('123.45');
    expect(me.body.data.ml_money).toBe('5.00');
    expect(me.body.data.fs_money).toBe('0.00');
  });
});
