import { createHash, randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { brRegistration, buildTestApp, call, loginOperator, registerPlayer } from '../../../test/app.ts';
import { databaseKinds } from '../../../test/databases.ts';
import { rowsOf } from '../../db/sql.ts';
import { newSite } from '../agency/agency.fixtures.ts';
import { localDay } from '../promotions/days.ts';
import { hold, settleHold } from '../wallet/holds.ts';
import { transfer } from '../wallet/wallet.service.ts';
import { SORTE_V1 } from './layout.ts';
import { findFiles } from './regulator.repo.ts';
import { addDays, buildReport, reportingSite } from './regulator.service.ts';

const kinds = await databaseKinds();
const sha = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
const ZONE = 'America/Sao_Paulo';

describe.each(kinds)('regulator daily files on %s', (kind) => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await buildTestApp(kind);
  }, 60_000);
  afterAll(async () => {
    await app?.close();
  });

  /** A br site with one player who deposited, played every product, won, got a refund, withdrew. */
  async function siteWithActivity() {
    const { site, host } = await newSite(app, 'br');
    const player = await registerPlayer(app, host, brRegistration());
    const memberId = BigInt(player.user.id);
    const db = app.services.db;
    const key = (what: string) => `reg-test:${what}:${randomUUID()}`;
    await transfer(db, {
      siteId: site.id,
      kind: 'deposit',
      from: { system: 'psp_clearing' },
      to: { memberId, account: 'cash' },
      amountMinor: 500_00n,
      idempotencyKey: key('deposit'),
      reference: 'deposit:D1',
    });
    for (const reference of ['round:1', 'crash-round:2', 'sports-bet:3', 'provider-round:4']) {
      await transfer(db, {
        siteId: site.id,
        kind: 'bet',
        from: { memberId, account: 'cash' },
        to: { system: 'house' },
        amountMinor: 10_00n,
        idempotencyKey: key('bet'),
        reference,
      });
    }
    await transfer(db, {
      siteId: site.id,
      kind: 'win',
      from: { system: 'house' },
      to: { memberId, account: 'cash' },
      amountMinor: 25_00n,
      idempotencyKey: key('win'),
      reference: 'round:1',
    });
    await transfer(db, {
      siteId: site.id,
      kind: 'refund',
      from: { system: 'house' },
      to: { memberId, account: 'cash' },
      amountMinor: 10_00n,
      idempotencyKey: key('refund'),
      reference: 'sports-bet:3',
    });
    const held = await hold(db, {
      siteId: site.id,
      memberId,
      amountMinor: 100_00n,
      idempotencyKey: key('hold'),
      enforceWagering: false,
    });
    await settleHold(db, { siteId: site.id, holdTransferId: held.transferId, idempotencyKey: key('payout') });
    return { site, host, memberId, cpf: player.input.cpf as string };
  }

  it('a day of activity gives files that validate, with checksums and a manifest', async () => {
    const { site, memberId, cpf } = await siteWithActivity();
    const reporting = await reportingSite(app.services.db, site.id);
    expect(reporting?.profile).toMatchObject({ layout: 'sorte-v1', maxRecordsPerFile: 7000, dueHour: 6 });
    const day = localDay(new Date(), ZONE);
    const outcome = await buildReport(app.services.db, reporting!, day);
    expect(outcome).toEqual({ day, status: 'ready', files: 2 });

    const [report] = await rowsOf<{ id: string; manifest: string; manifest_sha256: string; status: string }>(
      app.services.db,
      sql`SELECT id::text AS id, manifest, manifest_sha256, status FROM regulator_reports
          WHERE site_id = ${site.id.toString()}::bigint AND day = ${day}::date`,
    );
    expect(report!.status).toBe('ready');
    expect(sha(report!.manifest)).toBe(report!.manifest_sha256);
    const files = await findFiles(app.services.db, report!.id);
    const bets = files.find((f) => f.kind === 'bets')!;
    const transactions = files.find((f) => f.kind === 'transactions')!;
    const betLines = bets.content
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(betLines.map((l) => [l.record_type, l.product, l.amount_minor])).toEqual([
      ['bet', 'casino_original', '1000'],
      ['bet', 'crash', '1000'],
      ['bet', 'sportsbook', '1000'],
      ['bet', 'third_party', '1000'],
      ['win', 'casino_original', '2500'],
      ['refund', 'sportsbook', '1000'],
    ]);
    expect(betLines[0]).toMatchObject({
      player_id: memberId.toString(),
      player_cpf: cpf,
      local_date: day,
      currency: 'BRL',
    });
    const txLines = transactions.content
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(txLines.map((l) => [l.record_type, l.amount_minor])).toEqual([
      ['deposit', '50000'],
      ['withdrawal', '10000'],
    ]);
    const manifest = JSON.parse(report!.manifest);
    expect(manifest.totals).toEqual({ bets: 6, transactions: 2 });
    for (const file of files) {
      expect(sha(file.content)).toBe(file.sha256);
      expect(manifest.files.find((f: { name: string }) => f.name === file.name).sha256).toBe(file.sha256);
    }
    // The layout's own check finds a tampered file.
    const context = {
      siteCode: site.code,
      day,
      timeZone: ZONE,
      currency: 'BRL',
      periodStart: manifest.period_start,
      periodEnd: manifest.period_end,
      maxRecordsPerFile: 7000,
    };
    expect(SORTE_V1.validateFile(context, 'bets', bets.content, 6)).toEqual([]);
    expect(SORTE_V1.validateFile(context, 'bets', bets.content.replace('"1000"', '1000'), 6)).toContain(
      'line 1: amount_minor is not valid',
    );
  }, 60_000);

  it('splits 7,001 bets into files of 7,000 and 1, and a re-run is byte-identical', async () => {
    const { site, memberId } = await siteWithActivity();
    const db = app.services.db;
    // 6,995 more stakes straight into the ledger (the reporting reads the ledger, not balances).
    await db.execute(sql`
      INSERT INTO wallet_transfers (site_id, kind, debit_account_id, credit_account_id, amount_minor,
                                    reference, idempotency_key, request_hash)
      SELECT ${site.id.toString()}::bigint, 'bet',
             (SELECT id FROM wallet_accounts WHERE member_id = ${memberId.toString()}::bigint AND kind = 'cash'),
             (SELECT id FROM wallet_accounts WHERE site_id = ${site.id.toString()}::bigint AND member_id IS NULL AND kind = 'house'),
             100 + n, 'round:' || n, 'reg-bulk:' || n, md5(n::text) || md5(n::text)
      FROM generate_series(1, 6995) AS n`);
    const reporting = (await reportingSite(db, site.id))!;
    const day = localDay(new Date(), ZONE);
    expect(await buildReport(db, reporting, day)).toEqual({ day, status: 'ready', files: 3 });
    const read = async () => {
      const [report] = await rowsOf<{ id: string; manifest: string }>(
        db,
        sql`SELECT id::text AS id, manifest FROM regulator_reports
            WHERE site_id = ${site.id.toString()}::bigint AND day = ${day}::date`,
      );
      return { manifest: report!.manifest, files: await findFiles(db, report!.id) };
    };
    const first = await read();
    expect(first.files.map((f) => [f.kind, f.sequence, f.records])).toEqual([
      ['bets', 1, 7000],
      ['bets', 2, 1],
      ['transactions', 1, 2],
    ]);
    // Without replace the day is left as it is; with it the same ledger gives the same bytes.
    expect(await buildReport(db, reporting, day)).toMatchObject({ status: 'exists' });
    expect(await buildReport(db, reporting, day, { replace: true })).toMatchObject({ status: 'ready' });
    const second = await read();
    expect(second.manifest).toBe(first.manifest);
    expect(second.files).toEqual(first.files);
  }, 120_000);

  it('the daily job builds yesterday (site time) for br sites only, once', async () => {
    const { site } = await siteWithActivity();
    const intl = await newSite(app, 'intl');
    const today = localDay(new Date(), ZONE);
    // 00:30 tomorrow in São Paulo (UTC−3): today is then yesterday, closed 15 minutes ago.
    const tomorrowHalfPast = new Date(`${addDays(today, 1)}T03:30:00.000Z`);
    expect(await app.jobs.tick('regulator-daily-files', tomorrowHalfPast)).toBe('ran');
    const days = async (siteId: bigint) =>
      (
        await rowsOf<{ day: string; status: string }>(
          app.services.db,
          sql`SELECT to_char(day, 'YYYY-MM-DD') AS day, status FROM regulator_reports
              WHERE site_id = ${siteId.toString()}::bigint ORDER BY day`,
        )
      ).map((row) => `${row.day}:${row.status}`);
    const built = await days(site.id);
    expect(built).toHaveLength(7);
    expect(built.at(-1)).toBe(`${today}:ready`);
    expect(built.every((entry) => entry.endsWith(':ready'))).toBe(true);
    expect(await days(intl.site.id)).toEqual([]);
    expect(await app.jobs.tick('regulator-daily-files', tomorrowHalfPast)).toBe('ran');
    expect(await days(site.id)).toEqual(built);
  }, 120_000);

  it('lists and downloads through HTTP with finance.reports, refuses without it', async () => {
    const { site, host } = await siteWithActivity();
    const reporting = (await reportingSite(app.services.db, site.id))!;
    const day = localDay(new Date(), ZONE);
    await buildReport(app.services.db, reporting, day);
    const finance = await loginOperator(app, 'finance', host, `qa_reg_fin_${site.code}`);
    const content = await loginOperator(app, 'content', host, `qa_reg_con_${site.code}`);

    const list = await call(app, {
      method: 'GET',
      url: '/api/admin/regulator/reports',
      token: finance,
      host,
    });
    expect(list.status).toBe(200);
    expect(list.body.data).toMatchObject({
      reporting: true,
      layout: 'sorte-v1',
      due_hour: 6,
      max_records_per_file: 7000,
    });
    const [report] = list.body.data.list;
    expect(report).toMatchObject({ day, status: 'ready', bet_records: 6, transaction_records: 2 });
    expect(report.files.map((f: { kind: string }) => f.kind)).toEqual(['manifest', 'bets', 'transactions']);

    for (const file of report.files) {
      const response = await app.inject({
        method: 'GET',
        url: `/api/admin/regulator/reports/${day}/files/${file.name}`,
        headers: { host, authorization: `Bearer ${finance}` },
      });
      expect(response.statusCode).toBe(200);
      expect(response.headers['x-content-sha256']).toBe(file.sha256);
      expect(sha(response.body)).toBe(file.sha256);
      expect(Buffer.byteLength(response.body)).toBe(file.bytes);
    }
    const name = report.files[1].name;
    const refused = await call(app, {
      method: 'GET',
      url: `/api/admin/regulator/reports/${day}/files/${name}`,
      token: content,
      host,
    });
    expect(refused.status).toBe(403);
    const anonymous = await call(app, {
      method: 'GET',
      url: `/api/admin/regulator/reports/${day}/files/${name}`,
      host,
    });
    expect(anonymous.status).toBe(401);
    expect(
      (await call(app, { method: 'GET', url: '/api/admin/regulator/reports', token: content, host })).status,
    ).toBe(403);
    const missing = await call(app, {
      method: 'GET',
      url: `/api/admin/regulator/reports/${day}/files/nope.jsonl`,
      token: finance,
      host,
    });
    expect(missing.status).toBe(404);
    const bad = await call(app, {
      method: 'GET',
      url: '/api/admin/regulator/reports/2026-02-31/files/x.jsonl',
      token: finance,
      host,
    });
    expect(bad.status).toBe(422);
    expect(bad.body.code).toBe('VALIDATION_FAILED');
    expect(bad.body.message).toBeTruthy();
  }, 60_000);
});
