import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, call, HOSTS, registerPlayer } from '../../../test/app.ts';
import { databaseKinds } from '../../../test/databases.ts';
import { rowsOf } from '../wallet/wallet.repo.ts';

const kinds = await databaseKinds();

describe.each(kinds)('chat text on %s', (kind) => {
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
});
