import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, call, HOSTS, registerPlayer } from '../../../test/app.ts';
import { databaseKinds } from '../../../test/databases.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { punctuatedCpf, randomCnpj, randomCpf, randomEvp, randomMobile } from './bank-cards.fixtures.ts';
import { insertCard, lockUsableBankCard } from './bank-cards.repo.ts';

const kinds = await databaseKinds();

type TPlayer = Awaited<ReturnType<typeof registerPlayer>>;

describe.each(kinds)('bank cards on %s', (kind) => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await buildTestApp(kind);
  });
  afterAll(async () => {
    await app.close();
  });

  const list = async (player: TPlayer, host: string = HOSTS.intl) =>
    call(app, { method: 'GET', url: '/api/member/bank', token: player.token, host });
  const add = async (player: TPlayer, payload: unknown, options: { host?: string; lang?: string } = {}) =>
    call(app, {
      method: 'POST',
      url: `/api/member/bank/add${options.lang ? `?lang=${options.lang}` : ''}`,
      token: player.token,
      host: options.host ?? HOSTS.intl,
      payload: payload as Record<string, unknown>,
    });
  const remove = async (player: TPlayer, id: unknown, host: string = HOSTS.intl) =>
    call(app, { method: 'POST', url: '/api/member/bank/delete', token: player.token, host, payload: { id } });
  const card = (overrides: Record<string, unknown> = {}) => {
    const cpf = randomCpf();
    return { account_type: 'CPF', name: 'Maria Silva', account: cpf, cpf_id: cpf, ...overrides };
  };
  const rawRows = async (memberId: number) => {
    const result = (await app.services.db.execute(
      sql`SELECT id, pix_key, is_default, deleted_at FROM member_bank_cards
          WHERE member_id = ${memberId}::bigint ORDER BY id`,
    )) as unknown as { rows: { id: unknown; pix_key: string; is_default: boolean; deleted_at: unknown }[] };
    return result.rows;
  };

  it('needs a session on every bank card route', async () => {
    for (const [method, url] of [
      ['GET', '/api/member/bank'],
      ['POST', '/api/member/bank/add'],
      ['POST', '/api/member/bank/delete'],
    ] as const) {
      const response = await call(app, { method, url, payload: method === 'POST' ? card() : undefined });
      expect(response.status).toBe(401);
      expect(response.body).toMatchObject({
        status: 'fail',
        code: 'UNAUTHENTICATED',
        message: 'Unauthenticated.',
      });
    }
  });

  it('starts empty, adds one card of each key type normalised, the first one default', async () => {
    const player = await registerPlayer(app);
    const empty = await list(player);
    expect(empty.status).toBe(200);
    expect(empty.body.data).toEqual({ list: [], max_cards: 5, own_cpf_only: false, member_cpf: null });

    const cpf = randomCpf();
    const first = await add(player, {
      bank_name: 'Nubank',
      account_type: 'CPF',
      name: '  Maria   Silva ',
      account: punctuatedCpf(cpf),
      cpf_id: punctuatedCpf(cpf),
      account_no: '12345-6',
    });
    expect(first.status).toBe(200);
    expect(first.body.message).toBe('Bank card added successfully');
    expect(first.body.data).toEqual({
      id: expect.any(Number),
      bank_name: 'Nubank',
      account_type: 'CPF',
      name: 'Maria Silva',
      account: cpf,
      account_masked: `***.${cpf.slice(3, 6)}.${cpf.slice(6, 9)}-**`,
      cpf_id: cpf,
      account_no: '12345-6',
      is_default: true,
      created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
    });

    const cnpj = randomCnpj();
    const evp = randomEvp().toUpperCase();
    const phone = randomMobile();
    const email = `Maria.${randomBytes(4).toString('hex')}@Example.com`;
    const others = [
      {
        account_type: 'CNPJ',
        account: `${cnpj.slice(0, 2)}.${cnpj.slice(2, 5)}.${cnpj.slice(5, 8)}/${cnpj.slice(8, 12)}-${cnpj.slice(12)}`,
        expected: cnpj,
      },
      { account_type: 'EVP', account: evp, expected: evp.toLowerCase() },
      { account_type: 'PHONE', account: phone, expected: `+55${phone.replace(/\D/g, '')}` },
      { account_type: 'EMAIL', account: email, expected: email.toLowerCase() },
    ];
    for (const other of others) {
      const response = await add(player, {
        account_type: other.account_type,
        name: 'Maria Silva',
        account: other.account,
        cpf_id: cpf,
      });
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      expect(response.body.data).toMatchObject({
        account_type: other.account_type,
        account: other.expected,
        bank_name: 'PIX',
        is_default: false,
        account_no: null,
      });
    }
    const listed = await list(player);
    expect(listed.body.data.list.map((c: { account: string }) => c.account)).toEqual([
      cpf,
      ...others.map((o) => o.expected).reverse(),
    ]);
  });

  it('names every missing required field with the spec messages, translated', async () => {
    const player = await registerPlayer(app);
    const en = await add(player, {});
    expect(en.status).toBe(422);
    expect(en.body.code).toBe('VALIDATION_FAILED');
    expect(en.body.errors).toEqual({
      account_type: 'Please select the type',
      name: 'Please enter the name',
      account: 'Please enter the bank account',
      cpf_id: 'Please enter the CPF',
    });
    const pt = await add(player, { account_type: 'CPF', name: ' ', account: '', cpf_id: '' }, { lang: 'pt' });
    expect(pt.body.errors).toMatchObject({
      name: 'Por favor, insira o nome',
      cpf_id: 'Por favor, insira o CPF',
    });
    expect((await list(player)).body.data.list).toEqual([]);
  });

  it('refuses wrong types, unknown account types and huge strings, storing nothing', async () => {
    const player = await registerPlayer(app);
    const cases: [Record<string, unknown>, string, string][] = [
      [card({ account_type: 'IBAN' }), 'account_type', 'Please select a valid account type'],
      [card({ account_type: 5 }), 'account_type', 'Please select a valid account type'],
      [card({ name: 12 }), 'name', 'Wrong type'],
      [card({ account: ['x'] }), 'account', 'Wrong type'],
      [card({ cpf_id: { a: 1 } }), 'cpf_id', 'Wrong type'],
      [card({ is_default: 'yes' }), 'is_default', 'Wrong type'],
      [card({ name: 'x'.repeat(5000) }), 'name', 'This entry is too long'],
      [card({ account: '1'.repeat(78) }), 'account', 'This entry is too long'],
      [card({ bank_name: 'b'.repeat(61) }), 'bank_name', 'This entry is too long'],
      [
        card({ bank_name: '<script>' }),
        'bank_name',
        'The bank name contains characters that are not allowed',
      ],
      [
        card({ account_no: '12 34' }),
        'account_no',
        'The collection account number may only contain digits, letters and -',
      ],
      [card({ name: 'Maria 2' }), 'name', 'Please enter the payee name using letters only'],
    ];
    for (const [payload, field, message] of cases) {
      const response = await add(player, payload);
      expect(response.status, JSON.stringify(payload).slice(0, 80)).toBe(422);
      expect(response.body.errors?.[field]).toBe(message);
    }
    const notJson = await call(app, {
      method: 'POST',
      url: '/api/member/bank/add',
      token: player.token,
      headers: { 'content-type': 'application/json' },
      payload: '{"account_type":',
    });
    expect(notJson.status).toBe(400);
    const tooBig = await add(player, card({ name: 'x'.repeat(70_000) }));
    expect(tooBig.status).toBe(400);
    expect(await rawRows(player.user.id)).toEqual([]);
  });

  it('checks each key against its type and the CPF check digits', async () => {
    const player = await registerPlayer(app);
    const cpf = randomCpf();
    const badCpf = `${cpf.slice(0, 10)}${(Number(cpf[10]) + 1) % 10}`;
    const cases: [Record<string, unknown>, Record<string, string>][] = [
      [{ account_type: 'CPF', account: badCpf, cpf_id: cpf }, { account: 'The CPF is not valid' }],
      [{ account_type: 'CPF', account: '111.111.111-11', cpf_id: cpf }, { account: 'The CPF is not valid' }],
      [{ account_type: 'EVP', account: randomEvp(), cpf_id: badCpf }, { cpf_id: 'The CPF is not valid' }],
      [
        { account_type: 'CPF', account: randomCpf(), cpf_id: cpf },
        { account: 'A CPF key must be the same as the CPF entered' },
      ],
      [
        { account_type: 'CNPJ', account: '11222333000182', cpf_id: cpf },
        { account: 'The CNPJ is not valid' },
      ],
      [
        { account_type: 'EVP', account: '3f2504e0-4f89-11d3-9a0c-0305e82c3301', cpf_id: cpf },
        { account: 'The random key (EVP) is not valid' },
      ],
      [
        { account_type: 'EVP', account: 'not-a-uuid', cpf_id: cpf },
        { account: 'The random key (EVP) is not valid' },
      ],
      [
        { account_type: 'PHONE', account: '+1 202 555 0143', cpf_id: cpf },
        { account: 'Please enter a valid Brazilian mobile number with area code' },
      ],
      [
        { account_type: 'PHONE', account: '12345', cpf_id: cpf },
        { account: 'Please enter a valid Brazilian mobile number with area code' },
      ],
      [
        { account_type: 'EMAIL', account: 'maria@', cpf_id: cpf },
        { account: 'Please enter a valid email address' },
      ],
      [
        { account_type: 'EMAIL', account: 'maria@example', cpf_id: '000.000.000-00' },
        { account: 'Please enter a valid email address', cpf_id: 'The CPF is not valid' },
      ],
    ];
    for (const [fields, errors] of cases) {
      const response = await add(player, { name: 'Maria Silva', ...fields });
      expect(response.status, JSON.stringify(fields)).toBe(422);
      expect(response.body.code).toBe('VALIDATION_FAILED');
      expect(response.body.errors).toEqual(errors);
    }
    expect(await rawRows(player.user.id)).toEqual([]);
  });

  it('refuses a key already registered by the member or by another member, until it is removed', async () => {
    const player = await registerPlayer(app);
    const other = await registerPlayer(app);
    const evp = randomEvp();
    const first = await add(player, card({ account_type: 'EVP', account: evp }));
    expect(first.status).toBe(200);
    const again = await add(player, card({ account_type: 'EVP', account: evp.toUpperCase() }));
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({
      code: 'BANK_CARD_DUPLICATE',
      message: 'This PIX key is already registered',
    });
    const stolen = await add(other, card({ account_type: 'EVP', account: evp }));
    expect(stolen.body.code).toBe('BANK_CARD_DUPLICATE');
    expect(await rawRows(other.user.id)).toEqual([]);
    expect((await remove(player, first.body.data.id)).status).toBe(200);
    const freed = await add(other, card({ account_type: 'EVP', account: evp }));
    expect(freed.status).toBe(200);
  });

  it('allows at most five active cards, also when requests race', async () => {
    const player = await registerPlayer(app);
    const results = await Promise.all(Array.from({ length: 8 }, () => add(player, card())));
    expect(results.filter((r) => r.status === 200)).toHaveLength(5);
    const refused = results.filter((r) => r.status !== 200);
    expect(refused.map((r) => r.body.code)).toEqual([
      'BANK_CARD_LIMIT',
      'BANK_CARD_LIMIT',
      'BANK_CARD_LIMIT',
    ]);
    expect(refused[0]!.body.message).toBe('You can add at most 5 bank cards');
    const listed = (await list(player)).body.data.list as { is_default: boolean; id: number }[];
    expect(listed).toHaveLength(5);
    expect(listed.filter((c) => c.is_default)).toHaveLength(1);
    // Removing one makes room for one more.
    expect((await remove(player, listed[3]!.id)).status).toBe(200);
    expect((await add(player, card())).status).toBe(200);
    expect((await add(player, card())).body.code).toBe('BANK_CARD_LIMIT');
  });

  it('moves the default to a card added with is_default and back to the newest when the default is removed', async () => {
    const player = await registerPlayer(app);
    const a = (await add(player, card())).body.data;
    const b = (await add(player, card())).body.data;
    const c = (await add(player, card({ is_default: true }))).body.data;
    expect([a.is_default, b.is_default, c.is_default]).toEqual([true, false, true]);
    let listed = (await list(player)).body.data.list as { id: number; is_default: boolean }[];
    expect(listed.map((x) => [x.id, x.is_default])).toEqual([
      [c.id, true],
      [b.id, false],
      [a.id, false],
    ]);
    const removed = await remove(player, String(c.id));
    expect(removed.status).toBe(200);
    expect(removed.body).toMatchObject({ data: { id: c.id }, message: 'Bank card removed' });
    listed = (await list(player)).body.data.list;
    expect(listed.map((x) => [x.id, x.is_default])).toEqual([
      [b.id, true],
      [a.id, false],
    ]);
    // Soft delete: the row stays for the withdrawals that point at it.
    const rows = await rawRows(player.user.id);
    expect(rows).toHaveLength(3);
    expect(rows.find((r) => Number(r.id) === c.id)?.deleted_at).not.toBeNull();
  });

  it("refuses other members' cards, unknown, removed and malformed ids, changing nothing", async () => {
    const player = await registerPlayer(app);
    const other = await registerPlayer(app);
    const theirs = (await add(other, card())).body.data;
    const mine = (await add(player, card())).body.data;
    for (const id of [theirs.id, 999_999_999, String(theirs.id)]) {
      const response = await remove(player, id);
      expect(response.status).toBe(404);
      expect(response.body).toMatchObject({
        code: 'BANK_CARD_NOT_FOUND',
        message: 'Please select one of your own bank cards',
      });
    }
    for (const id of ['abc', -1, 0, 1.5, true, null, '1'.repeat(30), { id: 1 }]) {
      const response = await remove(player, id);
      expect(response.status, JSON.stringify(id)).toBe(422);
      expect(response.body.code).toBe('VALIDATION_FAILED');
    }
    expect(
      (await call(app, { method: 'POST', url: '/api/member/bank/delete', token: player.token, payload: {} }))
        .body.errors,
    ).toEqual({
      id: 'Please enter the bank account',
    });
    expect((await list(other)).body.data.list).toHaveLength(1);
    expect((await remove(player, mine.id)).status).toBe(200);
    expect((await remove(player, mine.id)).body.code).toBe('BANK_CARD_NOT_FOUND');
  });

  it('keeps a card while a withdrawal to it is open and lets it go once the withdrawal is finished', async () => {
    const player = await registerPlayer(app);
    const added = (await add(player, card())).body.data;
    const orderNo = `T${randomBytes(8).toString('hex').toUpperCase()}`;
    const holdId = BigInt(`0x${randomBytes(6).toString('hex')}`);
    await app.services.db.execute(sql`
      INSERT INTO withdrawal_orders (site_id, member_id, order_no, amount_minor, fee_minor, actual_minor,
        status, review_status, bank_card_id, payment_type, pix_key, pix_key_type, payee_name, hold_transfer_id)
      SELECT site_id, member_id, ${orderNo}, 5000, 200, 4800, 'pending_review', 'not_reviewed', id, 'pix',
        pix_key, account_type, payee_name, ${holdId.toString()}::bigint
      FROM member_bank_cards WHERE id = ${added.id}::bigint`);
    for (const status of ['pending_review', 'approved', 'paying']) {
      await app.services.db.execute(
        sql`UPDATE withdrawal_orders SET status = ${status},
            review_status = ${status === 'pending_review' ? 'not_reviewed' : 'reviewed'} WHERE order_no = ${orderNo}`,
      );
      const refused = await remove(player, added.id);
      expect(refused.status).toBe(409);
      expect(refused.body).toMatchObject({
        code: 'BANK_CARD_IN_USE',
        message: 'This bank card is used by a withdrawal in progress and cannot be removed',
      });
      expect((await list(player)).body.data.list).toHaveLength(1);
    }
    await app.services.db.execute(
      sql`UPDATE withdrawal_orders SET status = 'paid' WHERE order_no = ${orderNo}`,
    );
    expect((await remove(player, added.id)).status).toBe(200);
    expect((await list(player)).body.data.list).toEqual([]);
  });

  it('never removes a card under a withdrawal that is being created with it', async () => {
    const player = await registerPlayer(app);
    const added = (await add(player, card())).body.data;
    const siteId = (await app.services.sites.byCode('sorte'))!.id;
    const orderNo = `T${randomBytes(8).toString('hex').toUpperCase()}`;
    const insertOrder = (tx: Parameters<Parameters<typeof app.services.db.transaction>[0]>[0]) =>
      tx.execute(sql`
        INSERT INTO withdrawal_orders (site_id, member_id, order_no, amount_minor, fee_minor, actual_minor,
          status, review_status, bank_card_id, payment_type, pix_key, pix_key_type, payee_name, hold_transfer_id)
        VALUES (${siteId.toString()}::bigint, ${player.user.id}::bigint, ${orderNo}, 5000, 200, 4800,
          'pending_review', 'not_reviewed', ${added.id}::bigint, 'pix', ${added.account}, 'CPF', 'Maria Silva',
          ${BigInt(`0x${randomBytes(6).toString('hex')}`).toString()}::bigint)`);
    let removal: ReturnType<typeof remove> | undefined;
    await app.services.db.transaction(async (tx) => {
      // The withdrawal flow takes the card with lockUsableBankCard before writing its order.
      const locked = await lockUsableBankCard(tx, siteId, BigInt(player.user.id), BigInt(added.id));
      expect(locked?.id).toBe(BigInt(added.id));
      if (kind === 'postgres') {
        // A removal arriving now must wait for the withdrawal's transaction, then see its order.
        removal = remove(player, added.id);
        await waitForBlockedQuery();
      }
      await insertOrder(tx);
    });
    // On PGlite (one connection) the removal can only come after the withdrawal committed.
    const removed = await (removal ?? remove(player, added.id));
    expect(removed.status).toBe(409);
    expect(removed.body.code).toBe('BANK_CARD_IN_USE');
    expect((await list(player)).body.data.list).toHaveLength(1);
  });

  /** Polls pg_locks until some backend waits for a row lock (bounded: 200 polls). */
  async function waitForBlockedQuery(): Promise<void> {
    for (let attempt = 0; attempt < 200; attempt++) {
      const result = (await app.services.db.execute(
        sql`SELECT count(*)::int AS waiting FROM pg_locks WHERE NOT granted AND pid IN (
              SELECT pid FROM pg_stat_activity WHERE datname = current_database())`,
      )) as unknown as { rows: { waiting: number }[] };
      if (result.rows[0]!.waiting > 0) return;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    throw new Error('the removal never waited for the withdrawal lock');
  }

  /** A br account from before sign-up asked the CPF: it binds the CPF of its first card. */
  const brPlayerWithoutCpf = async () => {
    const player = await registerPlayer(app, HOSTS.br);
    await app.services.db.execute(sql`UPDATE members SET cpf = NULL WHERE id = ${player.user.id}::bigint`);
    return player;
  };

  it('on br sites accepts only PIX keys in the CPF given at sign-up', async () => {
    const cpf = randomCpf();
    const player = await registerPlayer(app, HOSTS.br, { cpf });
    const before = await list(player, HOSTS.br);
    expect(before.body.data).toMatchObject({ own_cpf_only: true, member_cpf: cpf });
    const first = await add(player, card({ account: cpf, cpf_id: punctuatedCpf(cpf) }), { host: HOSTS.br });
    expect(first.status).toBe(200);
    expect((await list(player, HOSTS.br)).body.data.member_cpf).toBe(cpf);

    const otherCpf = randomCpf();
    const mismatch = await add(
      player,
      card({ account_type: 'EVP', account: randomEvp(), cpf_id: otherCpf }),
      {
        host: HOSTS.br,
      },
    );
    expect(mismatch.status).toBe(422);
    expect(mismatch.body).toMatchObject({
      code: 'CPF_MISMATCH',
      // br sites speak Portuguese by default.
      message: 'Só é possível usar uma chave PIX no seu próprio CPF',
    });
    const company = await add(player, card({ account_type: 'CNPJ', account: randomCnpj(), cpf_id: cpf }), {
      host: HOSTS.br,
    });
    expect(company.body.code).toBe('CPF_MISMATCH');
    const ownEvp = await add(player, card({ account_type: 'EVP', account: randomEvp(), cpf_id: cpf }), {
      host: HOSTS.br,
    });
    expect(ownEvp.status).toBe(200);

    // Removing every card does not unbind the CPF.
    for (const c of (await list(player, HOSTS.br)).body.data.list) await remove(player, c.id, HOSTS.br);
    const afterRemoval = await add(
      player,
      card({ account_type: 'EVP', account: randomEvp(), cpf_id: otherCpf }),
      {
        host: HOSTS.br,
      },
    );
    expect(afterRemoval.body.code).toBe('CPF_MISMATCH');

    // A member without a CPF binds its first card's, but not one that is already another member's.
    const other = await brPlayerWithoutCpf();
    expect((await list(other, HOSTS.br)).body.data.member_cpf).toBeNull();
    const taken = await add(other, card({ account_type: 'EVP', account: randomEvp(), cpf_id: cpf }), {
      host: HOSTS.br,
    });
    expect(taken.status).toBe(409);
    expect(taken.body).toMatchObject({
      code: 'CPF_IN_USE',
      message: 'Este CPF já está vinculado a outra conta',
    });
    expect((await list(other, HOSTS.br)).body.data.member_cpf).toBeNull();
  });

  it('lets exactly one of several members racing for one key or one br CPF win', async () => {
    const racers = await Promise.all(Array.from({ length: 4 }, () => registerPlayer(app)));
    const evp = randomEvp();
    const keyRace = await Promise.all(
      racers.map((racer) => add(racer, card({ account_type: 'EVP', account: evp }))),
    );
    expect(keyRace.map((r) => r.status).sort()).toEqual([200, 409, 409, 409]);
    expect(keyRace.filter((r) => r.status === 409).every((r) => r.body.code === 'BANK_CARD_DUPLICATE')).toBe(
      true,
    );

    const brRacers = await Promise.all(Array.from({ length: 4 }, () => brPlayerWithoutCpf()));
    const cpf = randomCpf();
    const cpfRace = await Promise.all(
      brRacers.map((racer) =>
        add(racer, card({ account_type: 'EVP', account: randomEvp(), cpf_id: cpf }), { host: HOSTS.br }),
      ),
    );
    expect(cpfRace.map((r) => r.status).sort()).toEqual([200, 409, 409, 409]);
    expect(cpfRace.filter((r) => r.status === 409).every((r) => r.body.code === 'CPF_IN_USE')).toBe(true);
    const bound = await Promise.all(
      brRacers.map(async (racer) => (await list(racer, HOSTS.br)).body.data.member_cpf),
    );
    expect(bound.filter((value) => value === cpf)).toHaveLength(1);
    expect(bound.filter((value) => value === null)).toHaveLength(3);
  });

  it("recognises this driver's unique-violation error on the one-key-per-site index", async () => {
    const player = await registerPlayer(app);
    const siteId = (await app.services.sites.byCode('sorte'))!.id;
    const row = {
      siteId,
      memberId: BigInt(player.user.id),
      bankName: 'PIX',
      accountType: 'EVP' as const,
      payeeName: 'Maria Silva',
      pixKey: randomEvp(),
      cpf: randomCpf(),
      accountNo: null,
      isDefault: false,
    };
    await app.services.db.transaction((tx) => insertCard(tx, row));
    let caught: unknown;
    try {
      await app.services.db.transaction((tx) => insertCard(tx, { ...row, cpf: randomCpf() }));
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeDefined();
    expect(isUniqueViolation(caught, 'member_bank_cards_active_key')).toBe(true);
    expect(isUniqueViolation(caught, 'member_bank_cards_one_default')).toBe(false);
    expect(isUniqueViolation(new Error('boom'), 'member_bank_cards_active_key')).toBe(false);
  });

  it('lets intl members use any valid CPF and keeps each site and member to its own cards', async () => {
    const player = await registerPlayer(app);
    expect(
      (await add(player, card({ account_type: 'EVP', account: randomEvp(), cpf_id: randomCpf() }))).status,
    ).toBe(200);
    expect(
      (await add(player, card({ account_type: 'CNPJ', account: randomCnpj(), cpf_id: randomCpf() }))).status,
    ).toBe(200);
    expect((await list(player)).body.data).toMatchObject({ own_cpf_only: false, member_cpf: null });

    const brPlayer = await registerPlayer(app, HOSTS.br);
    const ownCpf = brPlayer.input.cpf as string;
    const brCard = (await add(brPlayer, card({ account: ownCpf, cpf_id: ownCpf }), { host: HOSTS.br })).body
      .data;
    // A br session does not open the intl site, and the intl member never sees the br card.
    expect((await list(brPlayer, HOSTS.intl)).status).toBe(401);
    expect((await remove(brPlayer, brCard.id, HOSTS.intl)).status).toBe(401);
    expect((await remove(player, brCard.id)).body.code).toBe('BANK_CARD_NOT_FOUND');
    expect((await list(player)).body.data.list.map((c: { id: number }) => c.id)).not.toContain(brCard.id);
    expect((await list(brPlayer, HOSTS.br)).body.data.list).toHaveLength(1);
  });
});
