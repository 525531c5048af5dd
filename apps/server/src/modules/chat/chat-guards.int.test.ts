import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildTestApp,
  call,
  HOSTS,
  loginOperator,
  registerPlayer,
  uniqueUsername,
} from '../../../test/app.ts';
import { databaseKinds } from '../../../test/databases.ts';
import { rowsOf } from '../../db/sql.ts';
import { newSite } from '../agency/agency.fixtures.ts';

const kinds = await databaseKinds();

describe.each(kinds)('chat text and mutes on %s', (kind) => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await buildTestApp(kind);
  }, 60_000);
  afterAll(async () => {
    await app?.close();
  });

  const send = (token: string, text: string, host: string = HOSTS.intl) =>
    call(app, { method: 'POST', url: '/api/chat/send', host, token, payload: { text } });

  async function storedTexts(memberId: number): Promise<string[]> {
    const rows = await rowsOf<{ text: string }>(
      app.services.db,
      sql`SELECT text FROM chat_messages WHERE member_id = ${memberId} ORDER BY id`,
    );
    return rows.map((row) => row.text);
  }

  it('refuses links hidden with invisible characters, other dots or script schemes, and stores nothing', async () => {
    const player = await registerPlayer(app);
    const plain = await send(player.token, 'go to evil.com now');
    expect(plain.body.code).toBe('CHAT_LINK_BLOCKED');
    for (const text of [
      'go to evil\u200b.com now',
      'go to evil\u200d.com now',
      'go to evil\u2060.com now',
      'go to evil\ufeff.com now',
      'go to evil\uff0ecom now',
      'go to evil\u3002com now',
      'go to evil\uff61com now',
      'javascript:alert(1)',
      'data:text/html;base64,PHNjcmlwdD4=',
      'vbscript:msgbox(1)',
    ]) {
      const refused = await send(player.token, text);
      expect(refused.status, JSON.stringify(text)).toBe(422);
      expect(refused.body.code, JSON.stringify(text)).toBe('CHAT_LINK_BLOCKED');
    }
    expect(await storedTexts(player.user.id)).toEqual([]);
  });

  it('refuses a message of only invisible characters as empty', async () => {
    const player = await registerPlayer(app);
    const refused = await call(app, {
      method: 'POST',
      url: '/api/chat/send?lang=pt',
      token: player.token,
      payload: { text: '\u200b\u200d\ufeff\u2060' },
    });
    expect(refused.status).toBe(422);
    expect(refused.body.code).toBe('VALIDATION_FAILED');
    expect(refused.body.errors).toHaveProperty('text');
    expect(await storedTexts(player.user.id)).toEqual([]);
  });

  it('stores and answers what the player typed, without its invisible characters', async () => {
    const player = await registerPlayer(app);
    const chinese = await send(player.token, '你好。今天\u200b怎么样？');
    expect(chinese.status).toBe(200);
    expect(chinese.body.data.text).toBe('你好。今天怎么样？');
    const family = await send(player.token, '👨\u200d👩\u200d👧 data: amanhã');
    expect(family.status).toBe(200);
    expect(family.body.data.text).toBe('👨\u200d👩\u200d👧 data: amanhã');
    expect(await storedTexts(player.user.id)).toEqual([
      '你好。今天怎么样？',
      '👨\u200d👩\u200d👧 data: amanhã',
    ]);
  });

  it('stores no message posted after its author’s mute committed (40 racing posts)', async () => {
    const { site, host } = await newSite(app, 'intl');
    await call(app, { method: 'GET', url: '/api/chat/room', host });
    // Room for every racing post in the rate limit, so only the mute can stop one.
    await app.services.db.execute(
      sql`UPDATE site_community SET chat_rate_messages = 100 WHERE site_id = ${site.id}`,
    );
    const player = await registerPlayer(app, host);
    const operator = await loginOperator(app, 'owner', host, uniqueUsername('own'));
    // Each stored message notes whether its author's mute had committed before the message's own
    // transaction could commit; a short pause in that transaction lets the mute meet the posts.
    await app.services.db.execute(sql`
      CREATE TABLE IF NOT EXISTS test_chat_mute_probe (message_id bigint PRIMARY KEY, mute_visible boolean NOT NULL)`);
    await app.services.db.execute(
      sql.raw(`
      CREATE OR REPLACE FUNCTION test_chat_mute_probe() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_sleep(0.02);
        INSERT INTO test_chat_mute_probe VALUES (NEW.id, EXISTS (
          SELECT 1 FROM chat_mutes m WHERE m.site_id = NEW.site_id AND m.member_id = NEW.member_id));
        RETURN NEW;
      END $$`),
    );
    await app.services.db.execute(sql`
      CREATE OR REPLACE TRIGGER test_chat_mute_probe AFTER INSERT ON chat_messages
      FOR EACH ROW EXECUTE FUNCTION test_chat_mute_probe()`);
    try {
      const posts = Array.from({ length: 40 }, (_, i) => send(player.token, `race ${i}`, host));
      const mute = call(app, {
        method: 'POST',
        url: '/api/admin/chat/mute',
        host,
        token: operator,
        payload: { username: player.user.name, minutes: 30, reason: 'spam' },
      });
      const [answers, muted] = await Promise.all([Promise.all(posts), mute]);
      expect(muted.status, JSON.stringify(muted.body)).toBe(200);
      const codes = answers.map((answer) => String(answer.body.code));
      expect(codes.filter((code) => code !== '200' && code !== 'CHAT_MUTED')).toEqual([]);
      const probes = await rowsOf<{ mute_visible: boolean }>(
        app.services.db,
        sql`SELECT p.mute_visible FROM test_chat_mute_probe p JOIN chat_messages c ON c.id = p.message_id
            WHERE c.member_id = ${player.user.id}`,
      );
      expect(probes.length).toBe(codes.filter((code) => code === '200').length);
      expect(probes.filter((probe) => probe.mute_visible)).toEqual([]);
      expect((await send(player.token, 'after', host)).body.code).toBe('CHAT_MUTED');
    } finally {
      await app.services.db.execute(sql`DROP TRIGGER IF EXISTS test_chat_mute_probe ON chat_messages`);
      await app.services.db.execute(sql`DROP FUNCTION IF EXISTS test_chat_mute_probe()`);
      await app.services.db.execute(sql`DROP TABLE IF EXISTS test_chat_mute_probe`);
    }
  });
});
