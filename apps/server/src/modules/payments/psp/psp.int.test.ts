import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSandbox, isValidBrCode, type Sandbox } from '@sorte/psp-sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandboxPayouts } from './payout-adapter.ts';
import { createPayoutId, createTxid, PspClient } from './psp.client.ts';
import { PSP_SIGNATURE_HEADER, readPayoutCallback, readPixCallback } from './psp.webhook.ts';

/**
 * The adapter against the real sandbox over loopback HTTP: OAuth, cob, the payer page, signed
 * webhooks with retries, expiry, restart with the same data dir, payouts.
 */

const CLIENT_ID = 'sorte-int-test';
const CLIENT_SECRET = 'int-test-client-secret';
const WEBHOOK_SECRET = 'int-test-webhook-secret-0123456789';
const MAX_ATTEMPTS = 4;

interface Received {
  path: string;
  rawBody: string;
  headers: IncomingMessage['headers'];
  answered: number;
}

/** A stand-in for the casino's webhook endpoint: records raw bodies, fails on demand. */
class Receiver {
  readonly requests: Received[] = [];
  failNext = 0;
  private server: Server | null = null;
  url = '';

  async start(): Promise<void> {
    this.server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const answered = this.failNext > 0 ? 500 : 200;
        if (this.failNext > 0) this.failNext -= 1;
        this.requests.push({
          path: request.url ?? '',
          rawBody: Buffer.concat(chunks).toString('utf8'),
          headers: request.headers,
          answered,
        });
        response.writeHead(answered).end();
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/webhooks/psp`;
  }

  about(id: string): Received[] {
    return this.requests.filter((r) => r.rawBody.includes(id));
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }
}

async function waitFor<T>(
  probe: () => T | undefined | false | Promise<T | undefined | false>,
  what: string,
): Promise<T> {
  // Bounded polling: a missing delivery fails the test instead of hanging it.
  for (let i = 0; i < 500; i++) {
    const value = await probe();
    if (value) return value;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`timed out waiting for ${what}`);
}

let clockOffsetMs = 0;
const clock = () => Date.now() + clockOffsetMs;

describe('PSP adapter against the PSP sandbox', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'psp-sandbox-int-'));
  const receiver = new Receiver();
  let sandbox: Sandbox;
  let port = 0;
  let psp: PspClient;

  const startSandbox = async () => {
    sandbox = createSandbox({
      dataDir,
      port,
      clientId: CLIENT_ID,
      clientSecret: CLIENT_SECRET,
      webhookSecret: WEBHOOK_SECRET,
      payoutDecisionDelayMs: 10,
      webhookDelivery: { maxAttempts: MAX_ATTEMPTS, baseDelayMs: 20, maxDelayMs: 200, timeoutMs: 2_000 },
      now: clock,
    });
    const url = await sandbox.listen();
    port = Number(new URL(url).port);
    return url;
  };

  const pay = (
    txid: string,
    form: Record<string, string> = { nome: 'Maria da Silva', cpf: '529.982.247-25' },
  ) =>
    fetch(`${sandbox.url}/pay/${txid}`, {
      method: 'POST',
      body: new URLSearchParams(form),
      redirect: 'manual',
    });

  const newCharge = (amountMinor = 12_345n, expiresInSeconds = 900) =>
    psp.createCharge({
      txid: createTxid(),
      amountMinor,
      expiresInSeconds,
      pixKey: sandbox.pixKey,
      debtor: { cpf: '52998224725', name: 'Maria da Silva' },
    });

  const readState = () =>
    JSON.parse(readFileSync(join(dataDir, 'state.json'), 'utf8')) as {
      deliveries: { body: string; status: string; attempts: number }[];
    };

  beforeAll(async () => {
    await receiver.start();
    const url = await startSandbox();
    psp = new PspClient({
      baseUrl: url,
      clientId: CLIENT_ID,
      clientSecret: CLIENT_SECRET,
      retryBaseDelayMs: 10,
      now: clock,
    });
    await psp.registerWebhook(sandbox.pixKey, receiver.url);
  });

  afterAll(async () => {
    await sandbox.close();
    await receiver.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('creates a charge, the payer pays on the payer page, and a signed notification arrives that the adapter accepts', async () => {
    const created = await newCharge();
    expect(created.status).toBe('ATIVA');
    expect(created.amountMinor).toBe(12_345n);
    expect(isValidBrCode(created.pixCopiaECola!)).toBe(true);
    expect(created.pixCopiaECola).toContain(created.location!);

    const fetched = await psp.getCharge(created.txid);
    expect(fetched.status).toBe('ATIVA');
    expect(fetched.payments).toEqual([]);

    const page = await fetch(`${sandbox.url}/pay/${created.txid}`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('R$ 123,45');
    expect(html).toContain('<svg');
    expect(html).toContain(created.pixCopiaECola!);

    const paid = await pay(created.txid);
    expect(paid.status).toBe(303);

    const delivery = await waitFor(() => receiver.about(created.txid)[0], 'the pix notification');
    expect(delivery.path).toBe('/webhooks/psp/pix');
    const result = readPixCallback({
      rawBody: delivery.rawBody,
      headers: delivery.headers,
      secret: WEBHOOK_SECRET,
      nowMs: clock(),
    });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.items).toHaveLength(1);
    // The callback only names the Pix; what it is comes from reading it back.
    const notification = await psp.getPix(result.items[0]!.endToEndId);
    expect(notification).toMatchObject({
      txid: created.txid,
      amountMinor: 12_345n,
      payer: { cpf: '52998224725', name: 'Maria da Silva' },
    });
    expect(notification.endToEndId).toMatch(/^E\d{8}\d{12}[a-zA-Z0-9]{11}$/);

    const concluded = await psp.getCharge(created.txid);
    expect(concluded.status).toBe('CONCLUIDA');
    expect(concluded.payments.map((p) => p.endToEndId)).toEqual([notification.endToEndId]);

    // A second notification signed with another secret would be refused by the adapter.
    expect(
      readPixCallback({
        rawBody: delivery.rawBody,
        headers: delivery.headers,
        secret: 'another-secret-0123456789',
        nowMs: clock(),
      }),
    ).toEqual({ ok: false, reason: 'mismatch' });
  });

  it('accepts exactly one of two concurrent payments of the same charge', async () => {
    const charge = await newCharge(500n);
    const answers = await Promise.all([pay(charge.txid), pay(charge.txid)]);
    expect(answers.map((a) => a.status).sort()).toEqual([303, 409]);
    const fetched = await psp.getCharge(charge.txid);
    expect(fetched.payments).toHaveLength(1);
    // Let its notification land so it cannot consume the failures staged by later tests.
    await waitFor(() => receiver.about(charge.txid).some((r) => r.answered === 200), 'the notification');
    expect(receiver.about(charge.txid)).toHaveLength(1);
  });

  it('refuses an invalid payer CPF on the payer page and leaves the charge unpaid', async () => {
    const charge = await newCharge(700n);
    const answer = await pay(charge.txid, { nome: 'Maria', cpf: '52998224724' });
    expect(answer.status).toBe(422);
    expect(await answer.text()).toContain('valid CPF');
    expect((await psp.getCharge(charge.txid)).status).toBe('ATIVA');
  });

  it('expires a charge after calendario.expiracao and refuses to take the payment', async () => {
    const charge = await newCharge(1_000n, 60);
    clockOffsetMs += 61_000;
    const expired = await psp.getCharge(charge.txid);
    expect(expired.status).toBe('REMOVIDA_PELO_PSP');
    const answer = await pay(charge.txid);
    expect(answer.status).toBe(409);
    expect(await answer.text()).toContain('can no longer be paid');
    expect(receiver.about(charge.txid)).toHaveLength(0);
  });

  it('lets the tester end a charge with "Let it expire"', async () => {
    const charge = await newCharge(1_100n);
    const answer = await fetch(`${sandbox.url}/pay/${charge.txid}/expire`, {
      method: 'POST',
      redirect: 'manual',
    });
    expect(answer.status).toBe(303);
    expect((await psp.getCharge(charge.txid)).status).toBe('REMOVIDA_PELO_PSP');
    expect((await pay(charge.txid)).status).toBe(409);
  });

  it('retries a failing receiver with the same body, each attempt freshly signed', async () => {
    receiver.failNext = 2;
    const charge = await newCharge(2_000n);
    await pay(charge.txid);
    const attempts = await waitFor(() => {
      const seen = receiver.about(charge.txid);
      return seen.length >= 3 && seen;
    }, 'three delivery attempts');
    expect(attempts.map((a) => a.answered)).toEqual([500, 500, 200]);
    expect(new Set(attempts.map((a) => a.rawBody)).size).toBe(1);
    for (const attempt of attempts) {
      expect(
        readPixCallback({
          rawBody: attempt.rawBody,
          headers: attempt.headers,
          secret: WEBHOOK_SECRET,
          nowMs: clock(),
        }).ok,
      ).toBe(true);
    }
  });

  it('stops retrying after the bounded number of attempts', async () => {
    receiver.failNext = 1_000;
    const charge = await newCharge(2_100n);
    await pay(charge.txid);
    const delivery = await waitFor(
      () => readState().deliveries.find((d) => d.body.includes(charge.txid) && d.status === 'failed'),
      'the delivery to be given up',
    );
    receiver.failNext = 0;
    expect(delivery.attempts).toBe(MAX_ATTEMPTS);
    expect(receiver.about(charge.txid)).toHaveLength(MAX_ATTEMPTS);
  });

  it('keeps charges across a restart and resumes a delivery that was still pending', async () => {
    const paidBefore = await newCharge(3_000n);
    await pay(paidBefore.txid);
    await waitFor(() => receiver.about(paidBefore.txid).some((r) => r.answered === 200), 'first delivery');

    receiver.failNext = 1_000;
    const pending = await newCharge(3_100n);
    await pay(pending.txid);
    await waitFor(() => receiver.about(pending.txid).length >= 1, 'a failed attempt');
    await sandbox.close();
    receiver.failNext = 0;

    await startSandbox();
    // The restarted PSP no longer knows our token: the client refreshes it transparently.
    const survived = await psp.getCharge(paidBefore.txid);
    expect(survived.status).toBe('CONCLUIDA');
    expect(survived.payments).toHaveLength(1);

    const resumed = await waitFor(
      () => receiver.about(pending.txid).find((r) => r.answered === 200),
      'the resumed delivery after restart',
    );
    const result = readPixCallback({
      rawBody: resumed.rawBody,
      headers: resumed.headers,
      secret: WEBHOOK_SECRET,
      nowMs: clock(),
    });
    expect(result.ok && result.items[0]!.txid).toBe(pending.txid);
    expect((await psp.getCharge(pending.txid)).status).toBe('CONCLUIDA');
  });

  it('refunds a received Pix: bounded by the Pix amount, idempotent by id, settled through the webhook', async () => {
    const charge = await newCharge(5_000n);
    await pay(charge.txid, { nome: 'Outra Pessoa', cpf: '111.444.777-35' });
    const paidWith = await waitFor(
      () => receiver.about(charge.txid).find((r) => r.answered === 200),
      'the payment',
    );
    const first = readPixCallback({
      rawBody: paidWith.rawBody,
      headers: paidWith.headers,
      secret: WEBHOOK_SECRET,
      nowMs: clock(),
    });
    if (!first.ok) throw new Error('payment notification did not verify');
    const endToEndId = first.items[0]!.endToEndId;
    expect((await psp.getPix(endToEndId)).payer?.cpf).toBe('11144477735');

    await expect(
      psp.refundPix({ endToEndId, refundId: 'too1much', amountMinor: 5_001n }),
    ).rejects.toMatchObject({
      code: 'PSP_REJECTED',
    });
    const request = {
      endToEndId,
      refundId: 'cpfMismatch1',
      amountMinor: 5_000n,
      description: 'CPF does not match',
    };
    const refund = await psp.refundPix(request);
    expect(refund).toMatchObject({ id: 'cpfMismatch1', status: 'EM_PROCESSAMENTO', amountMinor: 5_000n });
    expect((await psp.refundPix(request)).returnId).toBe(refund.returnId);
    await expect(psp.refundPix({ endToEndId, refundId: 'another1', amountMinor: 1n })).rejects.toMatchObject({
      code: 'PSP_REJECTED',
    });

    const news = await waitFor(
      () => receiver.about(charge.txid).find((r) => r.answered === 200 && r.rawBody.includes('DEVOLVIDO')),
      'the refund notification',
    );
    const result = readPixCallback({
      rawBody: news.rawBody,
      headers: news.headers,
      secret: WEBHOOK_SECRET,
      nowMs: clock(),
    });
    expect(result.ok && result.items[0]).toMatchObject({ endToEndId });
    expect(await psp.getPix(endToEndId)).toMatchObject({
      refunds: [{ id: 'cpfMismatch1', status: 'DEVOLVIDO', amountMinor: 5_000n }],
    });
    expect((await psp.getRefund(endToEndId, 'cpfMismatch1')).status).toBe('DEVOLVIDO');
  });

  it('settles a payout that the tester marks as succeeded and notifies it', async () => {
    const id = createPayoutId();
    const request = {
      id,
      amountMinor: 4_250n,
      pixKey: '52998224725',
      pixKeyType: 'CPF' as const,
      recipient: { cpf: '52998224725', name: 'Maria da Silva' },
    };
    const payouts = sandboxPayouts(psp);
    expect(await payouts.send(request)).toMatchObject({ kind: 'accepted', status: 'EM_PROCESSAMENTO' });
    // Same id, same body: the original payout, not a second one.
    expect(await payouts.send(request)).toMatchObject({ kind: 'accepted', status: 'EM_PROCESSAMENTO' });
    // Same id, another body: a conflict, which only a query by id can resolve.
    expect(await payouts.send({ ...request, amountMinor: 4_251n })).toMatchObject({ kind: 'unknown' });

    const decided = await fetch(`${sandbox.url}/admin/payouts/${id}/succeed`, {
      method: 'POST',
      redirect: 'manual',
    });
    expect(decided.status).toBe(303);
    const delivery = await waitFor(
      () => receiver.about(id).find((r) => r.answered === 200),
      'payout notification',
    );
    expect(delivery.path).toBe('/webhooks/psp/payout');
    expect(delivery.headers[PSP_SIGNATURE_HEADER]).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    const result = readPayoutCallback({
      rawBody: delivery.rawBody,
      headers: delivery.headers,
      secret: WEBHOOK_SECRET,
      nowMs: clock(),
    });
    expect(result.ok && result.items).toEqual([id]);
    expect(await payouts.get(id)).toMatchObject({ kind: 'accepted', status: 'REALIZADO' });

    const again = await fetch(`${sandbox.url}/admin/payouts/${id}/fail`, {
      method: 'POST',
      redirect: 'manual',
    });
    expect(again.status).toBe(409);
  });

  it('notifies a failed payout with its reason', async () => {
    const id = createPayoutId();
    await sandboxPayouts(psp).send({
      id,
      amountMinor: 990n,
      pixKey: 'maria@example.com',
      pixKeyType: 'EMAIL',
      recipient: { cpf: '52998224725', name: 'Maria da Silva' },
    });
    await fetch(`${sandbox.url}/admin/payouts/${id}/fail`, {
      method: 'POST',
      body: new URLSearchParams({ motivo: 'Conta destino encerrada' }),
      redirect: 'manual',
    });
    const delivery = await waitFor(
      () => receiver.about(id).find((r) => r.answered === 200),
      'payout failure notification',
    );
    const result = readPayoutCallback({
      rawBody: delivery.rawBody,
      headers: delivery.headers,
      secret: WEBHOOK_SECRET,
      nowMs: clock(),
    });
    expect(result.ok && result.items).toEqual([id]);
    expect(await sandboxPayouts(psp).get(id)).toMatchObject({
      kind: 'accepted',
      status: 'NAO_REALIZADO',
      failureReason: 'Conta destino encerrada',
      endToEndId: null,
    });
  });

  it('decides payouts automatically when the sandbox is set to', async () => {
    await fetch(`${sandbox.url}/admin/settings`, {
      method: 'POST',
      body: new URLSearchParams({ payoutMode: 'fail' }),
      redirect: 'manual',
    });
    const id = createPayoutId();
    await sandboxPayouts(psp).send({
      id,
      amountMinor: 100n,
      pixKey: '+5511987654321',
      pixKeyType: 'TELEFONE',
      recipient: { cpf: '52998224725', name: 'Maria da Silva' },
    });
    await waitFor(() => receiver.about(id).some((r) => r.answered === 200), 'automatic decision');
    expect(await sandboxPayouts(psp).get(id)).toMatchObject({ status: 'NAO_REALIZADO' });
    await fetch(`${sandbox.url}/admin/settings`, {
      method: 'POST',
      body: new URLSearchParams({ payoutMode: 'manual' }),
    });
  });

  it('rejects a payout whose key does not match its type, and a charge on a foreign key', async () => {
    expect(
      await sandboxPayouts(psp).send({
        id: createPayoutId(),
        amountMinor: 100n,
        pixKey: '52998224724',
        pixKeyType: 'CPF',
        recipient: { cpf: '52998224725', name: 'Maria' },
      }),
    ).toMatchObject({ kind: 'refused' });
    await expect(
      psp.createCharge({
        txid: createTxid(),
        amountMinor: 100n,
        expiresInSeconds: 60,
        pixKey: 'not-our-key@example.com',
      }),
    ).rejects.toMatchObject({ code: 'PSP_REJECTED' });
  });

  it('refuses wrong client credentials', async () => {
    const stranger = new PspClient({
      baseUrl: sandbox.url,
      clientId: CLIENT_ID,
      clientSecret: 'wrong',
      now: clock,
    });
    await expect(stranger.getCharge(createTxid())).rejects.toMatchObject({ code: 'PSP_AUTH_FAILED' });
  });
});
