import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, call, HOSTS, loginOperator, registerPlayer } from '../../../test/app.ts';
import { databaseKinds } from '../../../test/databases.ts';
import { rowsOf } from '../../db/sql.ts';

const kinds = await databaseKinds();

type TChainRow = { id: string; seq: string; prev_hash: string; hash: string };

describe.each(kinds)('the audit log hash chain on %s', (kind) => {
  let app: FastifyInstance;
  let owner: string;
  let memberId: string;
  beforeAll(async () => {
    app = await buildTestApp(kind);
    owner = await loginOperator(app);
    memberId = String((await registerPlayer(app)).user.id);
  }, 60_000);
  afterAll(async () => {
    await app?.close();
  });

  const verify = (token: string, host: string = HOSTS.intl, lang = 'en') =>
    call(app, { method: 'POST', url: `/api/admin/audit/verify?lang=${lang}`, token, host });
  const note = (body: string) =>
    call(app, {
      method: 'POST',
      url: `/api/admin/players/${memberId}/notes`,
      token: owner,
      payload: { body },
    });
  const chainOf = async (host: string = HOSTS.intl) => {
    const site = await app.services.sites.byHost(host);
    return rowsOf<TChainRow>(
      app.services.db,
      sql`SELECT id::text, chain_seq::text AS seq, prev_hash, hash FROM operator_actions
           WHERE site_id = ${String(site?.id)}::bigint ORDER BY chain_seq`,
    );
  };
  /** What a database superuser could do: switch the append-only trigger off, change rows, switch it on. */
  const asDba = async (statement: ReturnType<typeof sql>) => {
    await app.services.db.execute(
      sql`ALTER TABLE operator_actions DISABLE TRIGGER operator_actions_no_update_delete`,
    );
    try {
      await app.services.db.execute(statement);
    } finally {
      await app.services.db.execute(
        sql`ALTER TABLE operator_actions ENABLE TRIGGER operator_actions_no_update_delete`,
      );
    }
  };

  it('links every entry to the one before it, one linear chain even for 20 concurrent actions', async () => {
    for (let i = 0; i < 3; i += 1) expect((await note(`sequential ${i}`)).status).toBe(200);
    const parallel = await Promise.all(Array.from({ length: 20 }, (_, i) => note(`parallel ${i}`)));
    expect(parallel.map((response) => response.status)).toEqual(Array(20).fill(200));

    const chain = await chainOf();
    expect(chain.length).toBeGreaterThanOrEqual(23);
    let previous = '0'.repeat(64);
    chain.forEach((row, index) => {
      expect(row.seq).toBe(String(index + 1));
      expect(row.prev_hash).toBe(previous);
      expect(row.hash).toMatch(/^[0-9a-f]{64}$/);
      previous = row.hash;
    });
    expect(new Set(chain.map((row) => row.prev_hash)).size).toBe(chain.length);

    const verified = await verify(owner);
    expect(verified.status).toBe(200);
    expect(verified.body.message).toBe('The audit log hash chain is intact');
    expect(verified.body.data).toEqual({
      intact: true,
      entries: chain.length,
      head_hash: previous,
      broken: null,
    });
    const pt = await verify(owner, HOSTS.intl, 'pt');
    expect(pt.body.message).toBe('A cadeia de hashes do registro de auditoria está íntegra');
  });

  it('keeps each site its own chain', async () => {
    const brOwner = await loginOperator(app, 'owner', HOSTS.br, 'qa_owner_br');
    const before = await verify(brOwner, HOSTS.br);
    expect(before.body.data.intact).toBe(true);
    const intl = await verify(owner);
    expect(intl.body.data.entries).toBe((await chainOf()).length);
    expect(before.body.data.entries).toBe((await chainOf(HOSTS.br)).length);
  });

  it('names the entry a database superuser edited; the original content makes it whole again', async () => {
    await note('tamper target');
    await note('after the target');
    const chain = await chainOf();
    const target = chain[chain.length - 2] as TChainRow;
    const [original] = await rowsOf<{ after: string; ip: string | null }>(
      app.services.db,
      sql`SELECT after::text AS after, ip FROM operator_actions WHERE id = ${target.id}::bigint`,
    );
    if (!original) throw new Error('no target row');

    await asDba(sql`UPDATE operator_actions SET after = '{"body":"rewritten"}'::jsonb, ip = '10.9.9.9'
                     WHERE id = ${target.id}::bigint`);
    const edited = await verify(owner);
    expect(edited.status).toBe(200);
    expect(edited.body.message).toBe('The audit log hash chain is broken: an entry was changed or removed');
    expect(edited.body.data.intact).toBe(false);
    expect(edited.body.data.entries).toBe(Number(target.seq) - 1);
    expect(edited.body.data.broken).toMatchObject({
      id: target.id,
      seq: target.seq,
      reason: 'hash_mismatch',
      stored: target.hash,
    });
    expect(edited.body.data.broken.expected).toMatch(/^[0-9a-f]{64}$/);
    expect(edited.body.data.broken.expected).not.toBe(target.hash);

    await asDba(sql`UPDATE operator_actions SET after = ${original.after}::jsonb, ip = ${original.ip}
                     WHERE id = ${target.id}::bigint`);
    const restored = await verify(owner);
    expect(restored.body.data).toMatchObject({ intact: true, entries: chain.length, broken: null });
  });

  it('names the entry after a deleted one, and sees entries removed from the end', async () => {
    const brOwner = await loginOperator(app, 'owner', HOSTS.br, 'qa_owner_br');
    const brMember = String((await registerPlayer(app, HOSTS.br)).user.id);
    for (let i = 0; i < 4; i += 1) {
      const response = await call(app, {
        method: 'POST',
        url: `/api/admin/players/${brMember}/notes`,
        host: HOSTS.br,
        token: brOwner,
        payload: { body: `br note ${i}` },
      });
      expect(response.status).toBe(200);
    }
    const brChain = await chainOf(HOSTS.br);
    const deleted = brChain[brChain.length - 3] as TChainRow;
    const next = brChain[brChain.length - 2] as TChainRow;
    await asDba(sql`DELETE FROM operator_actions WHERE id = ${deleted.id}::bigint`);
    const gap = await verify(brOwner, HOSTS.br);
    expect(gap.body.data).toMatchObject({
      intact: false,
      entries: Number(deleted.seq) - 1,
      broken: { id: next.id, seq: next.seq, reason: 'sequence_gap', expected: deleted.seq, stored: next.seq },
    });

    const chain = await chainOf();
    const last = chain[chain.length - 1] as TChainRow;
    await asDba(sql`DELETE FROM operator_actions WHERE id = ${last.id}::bigint`);
    const truncated = await verify(owner);
    expect(truncated.body.data).toMatchObject({
      intact: false,
      entries: chain.length - 1,
      broken: { id: null, reason: 'head_mismatch', expected: `${last.seq}:${last.hash}` },
    });
  });

  it('is for the owner only', async () => {
    for (const role of ['finance', 'support', 'content'] as const) {
      const token = await loginOperator(app, role);
      const refused = await verify(token, HOSTS.intl, 'pt');
      expect(refused.status).toBe(403);
      expect(refused.body).toMatchObject({ status: 'fail', code: 'FORBIDDEN' });
      expect(refused.body.message).toBeTruthy();
    }
    const player = await registerPlayer(app);
    expect((await verify(player.token)).status).toBe(401);
  });
});
