import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  PSP_SIGNATURE_HEADER,
  parsePayoutWebhook,
  parsePixWebhook,
  readPixWebhook,
  verifyPspSignature,
} from './psp.webhook.ts';

const SECRET = 'test-webhook-secret-0123456789';
const NOW_MS = Date.parse('2026-11-23T12:00:00Z');
const NOW_S = NOW_MS / 1000;

function sign(body: string, t = NOW_S, secret = SECRET): string {
  return `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${body}`).digest('hex')}`;
}

const pixBody = JSON.stringify({
  pix: [
    {
      endToEndId: 'E99999999202611231200abcdefghijk',
      txid: 'abcdefghijklmnopqrstuvwxyz012345',
      valor: '123.45',
      horario: '2026-11-23T11:59:58.000Z',
      pagador: { cpf: '52998224725', nome: 'Maria da Silva' },
    },
  ],
});

describe('verifyPspSignature', () => {
  it('accepts a correctly signed body within the tolerance', () => {
    expect(
      verifyPspSignature({ rawBody: pixBody, header: sign(pixBody), secret: SECRET, nowMs: NOW_MS }),
    ).toEqual({ ok: true });
    expect(
      verifyPspSignature({
        rawBody: Buffer.from(pixBody),
        header: sign(pixBody, NOW_S - 299),
        secret: SECRET,
        nowMs: NOW_MS,
      }),
    ).toEqual({ ok: true });
  });

  it('rejects a signature made with another secret', () => {
    const header = sign(pixBody, NOW_S, 'another-secret-0123456789');
    expect(verifyPspSignature({ rawBody: pixBody, header, secret: SECRET, nowMs: NOW_MS })).toEqual({
      ok: false,
      reason: 'mismatch',
    });
  });

  it('rejects a body changed after signing, even by one character or whitespace', () => {
    const header = sign(pixBody);
    const tampered = pixBody.replace('123.45', '923.45');
    expect(verifyPspSignature({ rawBody: tampered, header, secret: SECRET, nowMs: NOW_MS })).toEqual({
      ok: false,
      reason: 'mismatch',
    });
    expect(verifyPspSignature({ rawBody: `${pixBody} `, header, secret: SECRET, nowMs: NOW_MS })).toEqual({
      ok: false,
      reason: 'mismatch',
    });
  });

  it('rejects a timestamp moved without re-signing', () => {
    const header = sign(pixBody).replace(`t=${NOW_S}`, `t=${NOW_S + 1}`);
    expect(verifyPspSignature({ rawBody: pixBody, header, secret: SECRET, nowMs: NOW_MS })).toEqual({
      ok: false,
      reason: 'mismatch',
    });
  });

  it('rejects stale and future timestamps outside the tolerance', () => {
    expect(
      verifyPspSignature({
        rawBody: pixBody,
        header: sign(pixBody, NOW_S - 301),
        secret: SECRET,
        nowMs: NOW_MS,
      }),
    ).toEqual({
      ok: false,
      reason: 'stale',
    });
    expect(
      verifyPspSignature({
        rawBody: pixBody,
        header: sign(pixBody, NOW_S + 301),
        secret: SECRET,
        nowMs: NOW_MS,
      }),
    ).toEqual({
      ok: false,
      reason: 'stale',
    });
    expect(
      verifyPspSignature({
        rawBody: pixBody,
        header: sign(pixBody, NOW_S - 20),
        secret: SECRET,
        nowMs: NOW_MS,
        toleranceSeconds: 10,
      }),
    ).toEqual({ ok: false, reason: 'stale' });
  });

  it('rejects missing and malformed headers', () => {
    expect(
      verifyPspSignature({ rawBody: pixBody, header: undefined, secret: SECRET, nowMs: NOW_MS }),
    ).toEqual({ ok: false, reason: 'missing' });
    for (const header of [
      'garbage',
      `t=${NOW_S}`,
      'v1=abc',
      `t=x,v1=${'0'.repeat(64)}`,
      `t=${NOW_S},v1=${'z'.repeat(64)}`,
      'x'.repeat(2000),
    ]) {
      expect(
        verifyPspSignature({ rawBody: pixBody, header, secret: SECRET, nowMs: NOW_MS }),
        header.slice(0, 30),
      ).toEqual({
        ok: false,
        reason: 'malformed',
      });
    }
  });

  it('accepts any matching v1 among several (secret rotation)', () => {
    const good = sign(pixBody).split(',v1=')[1];
    const header = `t=${NOW_S},v1=${'0'.repeat(64)},v1=${good}`;
    expect(verifyPspSignature({ rawBody: pixBody, header, secret: SECRET, nowMs: NOW_MS })).toEqual({
      ok: true,
    });
  });

  it('refuses oversized bodies before hashing', () => {
    const big = 'x'.repeat(300 * 1024);
    expect(verifyPspSignature({ rawBody: big, header: sign(big), secret: SECRET, nowMs: NOW_MS })).toEqual({
      ok: false,
      reason: 'too_large',
    });
  });
});

describe('parsePixWebhook', () => {
  it('returns typed notifications with bigint centavos and dates', () => {
    const result = parsePixWebhook(pixBody);
    expect(result).toEqual({
      ok: true,
      notifications: [
        {
          endToEndId: 'E99999999202611231200abcdefghijk',
          txid: 'abcdefghijklmnopqrstuvwxyz012345',
          amountMinor: 12345n,
          paidAt: new Date('2026-11-23T11:59:58.000Z'),
          payer: { cpf: '52998224725', name: 'Maria da Silva' },
          payerMessage: null,
          refunds: [],
        },
      ],
    });
  });

  it('accepts the API Pix example without a payer', () => {
    const body = JSON.stringify({
      pix: [
        {
          endToEndId: 'E87654321202009091221dfghi123456',
          txid: '971122d8f37211eaadc10242ac120002',
          valor: '110.00',
          horario: '2020-09-09T20:15:00.358Z',
          infoPagador: '0123456789',
        },
      ],
    });
    const result = parsePixWebhook(body);
    expect(result.ok && result.notifications[0]).toMatchObject({
      amountMinor: 11000n,
      payer: null,
      payerMessage: '0123456789',
    });
  });

  it('reads refund news, also in the single-object form of the API Pix example', () => {
    const refund = {
      id: '123ABC',
      rtrId: 'D12345678202009091221abcdf098765',
      valor: '10.00',
      horario: { solicitacao: '2020-09-09T20:15:00.358Z' },
      status: 'DEVOLVIDO',
    };
    const item = {
      endToEndId: 'E12345678202009091221kkkkkkkkkkk',
      txid: 'c3e0e7a4e7f1469a9f782d3d4999343c',
      valor: '110.00',
      horario: '2020-09-09T20:15:00.358Z',
    };
    for (const devolucoes of [refund, [refund]]) {
      const result = parsePixWebhook(JSON.stringify({ pix: [{ ...item, devolucoes }] }));
      expect(result.ok && result.notifications[0]!.refunds).toEqual([
        {
          id: '123ABC',
          returnId: 'D12345678202009091221abcdf098765',
          amountMinor: 1000n,
          status: 'DEVOLVIDO',
          reason: null,
        },
      ]);
    }
  });

  it('rejects bad amounts, ids, CPFs, empty lists and non-JSON', () => {
    const item = JSON.parse(pixBody).pix[0];
    const bad = [
      { pix: [{ ...item, valor: '1.5' }] },
      { pix: [{ ...item, valor: '-1.00' }] },
      { pix: [{ ...item, valor: '0.00' }] },
      { pix: [{ ...item, valor: 12.5 }] },
      { pix: [{ ...item, endToEndId: 'short' }] },
      { pix: [{ ...item, txid: undefined }] },
      { pix: [{ ...item, horario: 'yesterday' }] },
      { pix: [{ ...item, pagador: { cpf: '52998224724', nome: 'X' } }] },
      { pix: [] },
      { notpix: [] },
    ];
    for (const body of bad)
      expect(parsePixWebhook(JSON.stringify(body)).ok, JSON.stringify(body)).toBe(false);
    expect(parsePixWebhook('{not json')).toEqual({ ok: false, reason: 'invalid_json' });
  });
});

describe('readPixWebhook', () => {
  it('parses nothing from a body whose signature does not verify', () => {
    const headers = { [PSP_SIGNATURE_HEADER]: sign(pixBody, NOW_S, 'wrong-secret-0123456789') };
    expect(readPixWebhook({ rawBody: pixBody, headers, secret: SECRET, nowMs: NOW_MS })).toEqual({
      ok: false,
      reason: 'mismatch',
    });
  });

  it('returns the notifications of a verified body', () => {
    const result = readPixWebhook({
      rawBody: pixBody,
      headers: { [PSP_SIGNATURE_HEADER]: sign(pixBody) },
      secret: SECRET,
      nowMs: NOW_MS,
    });
    expect(result.ok && result.notifications.map((n) => n.amountMinor)).toEqual([12345n]);
  });
});

describe('parsePayoutWebhook', () => {
  it('returns settled and failed payouts', () => {
    const body = JSON.stringify({
      payouts: [
        {
          id: 'abcdefghijklmnopqrstuvwxyz012345',
          status: 'REALIZADO',
          valor: '50.00',
          endToEndId: 'E99999999202611231200abcdefghijk',
          horario: { solicitacao: '2026-11-23T11:00:00Z', liquidacao: '2026-11-23T11:00:01Z' },
        },
        {
          id: 'bbcdefghijklmnopqrstuvwxyz012345',
          status: 'NAO_REALIZADO',
          valor: '7.10',
          motivo: 'Chave inexistente',
          horario: { solicitacao: '2026-11-23T11:00:00Z' },
        },
      ],
    });
    const result = parsePayoutWebhook(body);
    expect(result.ok && result.notifications).toEqual([
      {
        id: 'abcdefghijklmnopqrstuvwxyz012345',
        status: 'REALIZADO',
        amountMinor: 5000n,
        requestedAt: new Date('2026-11-23T11:00:00Z'),
        settledAt: new Date('2026-11-23T11:00:01Z'),
        endToEndId: 'E99999999202611231200abcdefghijk',
        failureReason: null,
      },
      {
        id: 'bbcdefghijklmnopqrstuvwxyz012345',
        status: 'NAO_REALIZADO',
        amountMinor: 710n,
        requestedAt: new Date('2026-11-23T11:00:00Z'),
        settledAt: null,
        endToEndId: null,
        failureReason: 'Chave inexistente',
      },
    ]);
  });

  it('rejects an unknown status', () => {
    const body = JSON.stringify({
      payouts: [
        {
          id: 'abcdefghijklmnopqrstuvwxyz012345',
          status: 'PAGO',
          valor: '1.00',
          horario: { solicitacao: '2026-11-23T11:00:00Z' },
        },
      ],
    });
    expect(parsePayoutWebhook(body).ok).toBe(false);
  });
});
