import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, call, HOSTS, loginOperator, randomCpf, registerPlayer } from '../../../test/app.ts';
import { databaseKinds } from '../../../test/databases.ts';

const kinds = await databaseKinds();

/** Players' CPF, e-mail and phone by operator role (players.pii; ADR 022). */
describe.each(kinds)('personal data by role in the back office on %s', (kind) => {
  let app: FastifyInstance;
  let id: number;
  let username: string;
  let cpf: string;
  let phone: string;
  let email: string;
  let ip: string;
  const tokens: Record<'owner' | 'finance' | 'support' | 'content', string> = {
    owner: '',
    finance: '',
    support: '',
    content: '',
  };
  beforeAll(async () => {
    app = await buildTestApp(kind);
    const player = await registerPlayer(app, HOSTS.intl);
    id = Number(player.user.id);
    username = player.input.username as string;
    cpf = randomCpf();
    const local = String(Math.floor(Math.random() * 1e8)).padStart(8, '0');
    phone = `+55219${local}`;
    email = `${username}@dominio-teste.com`;
    ip = `198.51.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;
    await app.services.db.execute(
      sql`UPDATE members SET cpf = ${cpf}, phone = ${phone}, email = ${email}, register_ip = ${ip}
          WHERE id = ${String(id)}::bigint`,
    );
    for (const role of Object.keys(tokens) as (keyof typeof tokens)[]) {
      tokens[role] = await loginOperator(app, role);
    }
  }, 60_000);
  afterAll(async () => {
    await app?.close();
  });

  const get = (url: string, token: string) => call(app, { method: 'GET', url, token });
  const csvOf = async (url: string, token: string) => {
    const response = await app.inject({
      method: 'GET',
      url,
      headers: { host: HOSTS.intl, authorization: `Bearer ${token}` },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/csv');
    return response.body;
  };
  const masked = () => ({
    cpf: `***.${cpf.slice(3, 6)}.${cpf.slice(6, 9)}-**`,
    phone: `+55 21 *****-${phone.slice(-4)}`,
    email: `${username.slice(0, 1)}***@d***.com`,
    register_ip: `${ip.split('.').slice(0, 2).join('.')}.*.*`,
  });
  const rowOf = (body: { data: { list: { id: number }[] } }) => body.data.list.find((row) => row.id === id);

  it('shows owner, finance and support the full CPF, e-mail, phone and IP (JSON and CSV)', async () => {
    for (const role of ['owner', 'finance', 'support'] as const) {
      const search = await get(`/api/admin/players?field=username&q=${username}`, tokens[role]);
      expect(search.status, role).toBe(200);
      expect(rowOf(search.body), role).toMatchObject({ cpf, phone, email, register_ip: ip });
      const detail = await get(`/api/admin/players/${id}`, tokens[role]);
      expect(detail.body.data.profile, role).toMatchObject({ cpf, phone, email });
      const csv = await csvOf(`/api/admin/players?field=username&q=${username}&format=csv`, tokens[role]);
      // (a leading "+" is written as "'+" so a spreadsheet does not read it as a formula)
      expect(csv, role).toContain(`,${cpf},'${phone},${email},`);
    }
  });

  it('masks them for content in the search, the detail, the sessions and the CSV; the full value is never sent', async () => {
    const search = await get(`/api/admin/players?field=username&q=${username}`, tokens.content);
    expect(search.status).toBe(200);
    expect(rowOf(search.body)).toMatchObject(masked());
    const detail = await get(`/api/admin/players/${id}`, tokens.content);
    expect(detail.status).toBe(200);
    expect(detail.body.data.profile).toMatchObject({ ...masked(), username });
    const csv = await csvOf(`/api/admin/players?field=username&q=${username}&format=csv`, tokens.content);
    const { cpf: maskedCpf, phone: maskedPhone, email: maskedEmail } = masked();
    expect(csv).toContain(`,${maskedCpf},'${maskedPhone},${maskedEmail},`);
    const sessions = await get(`/api/admin/players/${id}/sessions`, tokens.content);
    expect(sessions.status).toBe(200);
    expect(sessions.body.data.list.length).toBeGreaterThan(0);
    for (const session of sessions.body.data.list) expect(session.ip).toMatch(/^[\d.:a-f]+\*/);
    const fullSessions = await get(`/api/admin/players/${id}/sessions`, tokens.support);
    expect(fullSessions.body.data.list[0].ip).not.toContain('*');
    for (const text of [JSON.stringify(search.body), JSON.stringify(detail.body), csv]) {
      expect(text).not.toContain(ip);
      expect(text).not.toContain(cpf);
      expect(text).not.toContain(phone.slice(3));
      expect(text).not.toContain(email);
    }
  });

  it('lets content find a player by a whole CPF, e-mail, phone or IP (masked result), never by a fragment', async () => {
    const whole: [string, string][] = [
      ['cpf', `${cpf.slice(0, 3)}.${cpf.slice(3, 6)}.${cpf.slice(6, 9)}-${cpf.slice(9)}`],
      ['email', email.toUpperCase()],
      ['phone', `(21) ${phone.slice(5, 10)}-${phone.slice(10)}`],
      ['any', cpf],
      ['any', email],
      ['address', ip],
    ];
    for (const [field, q] of whole) {
      const found = await get(`/api/admin/players?field=${field}&q=${encodeURIComponent(q)}`, tokens.content);
      expect(found.status, `${field} ${q}`).toBe(200);
      expect(rowOf(found.body), `${field} ${q}`).toMatchObject(masked());
    }
    const fragments: [string, string][] = [
      ['cpf', cpf.slice(0, 6)],
      ['email', email.slice(0, 6)],
      ['phone', phone.slice(-6)],
      ['any', cpf.slice(2, 9)],
      ['address', ip.split('.').slice(0, 3).join('.')],
    ];
    for (const [field, q] of fragments) {
      const none = await get(`/api/admin/players?field=${field}&q=${encodeURIComponent(q)}`, tokens.content);
      expect(none.status, `${field} ${q}`).toBe(200);
      expect(rowOf(none.body), `${field} ${q}`).toBeUndefined();
      // support (players.pii) still finds by fragments
      const some = await get(`/api/admin/players?field=${field}&q=${encodeURIComponent(q)}`, tokens.support);
      expect(rowOf(some.body), `${field} ${q}`).toMatchObject({ cpf, email, phone, register_ip: ip });
    }
  });

  it('gives content no player actions (reading is all players.read adds)', async () => {
    const refused = await call(app, {
      method: 'POST',
      url: `/api/admin/players/${id}/notes`,
      token: tokens.content,
      payload: { body: 'content cannot write notes' },
    });
    expect(refused.status).toBe(403);
    expect((await get('/api/admin/withdrawals', tokens.content)).status).toBe(403);
  });
});
