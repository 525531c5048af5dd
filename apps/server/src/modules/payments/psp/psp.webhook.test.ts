import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  PSP_SIGNATURE_HEADER,
  parsePayoutCallback,
  parsePixCallback,
  readPixCallback,
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

describe('parsePixCallback', () => {
  it('takes the endToEndIds to read back, with the txid when it is there (optional in the standard)', () => {
    const body = JSON.stringify({
      pix: [
        {
          endToEndId: 'E87654321202009091221dfghi123456',
          valor: '110.00',
          horario: '2020-09-09T20:15:00.358Z',
        },
        JSON.parse(pixBody).pix[0],
      ],
    });
    expect(parsePixCallback(body)).toEqual({
      ok: true,
      skipped: 0,
      items: [
        { endToEndId: 'E87654321202009091221dfghi123456', txid: null },
        { endToEndId: 'E99999999202611231200abcdefghijk', txid: 'abcdefghijklmnopqrstuvwxyz012345' },
      ],
    });
  });

  it('skips an odd item without rejecting the others (a payer of another shape, a bad id)', () => {
    const item = JSON.parse(pixBody).pix[0];
    const body = JSON.stringify({
      pix: [
        { ...item, pagador: { documento: 'x', tipo: 1 } },
        { ...item, endToEndId: 'short' },
        'not an object',
        { ...item, endToEndId: 'E99999999202611231200abcdefghijl', valor: 12.5 },
      ],
    });
    const result = parsePixCallback(body);
    expect(result.ok && result.items.map((i) => i.endToEndId)).toEqual([
      'E99999999202611231200abcdefghijk',
      'E99999999202611231200abcdefghijl',
    ]);
    expect(result.ok && result.skipped).toBe(2);
  });

  it('refuses what is not a { pix: [...] } JSON body', () => {
    expect(parsePixCallback('{not json')).toEqual({ ok: false, reason: 'invalid_json' });
    expect(parsePixCallback('{"notpix":[]}')).toEqual({ ok: false, reason: 'invalid_body' });
    expect(parsePixCallback('{"pix":{}}')).toEqual({ ok: false, reason: 'invalid_body' });
  });
});

describe('readPixCallback', () => {
  it('takes an unsigned callback when no secret is configured (the standard: mTLS, no signature)', () => {
    const result = readPixCallback({ rawBody: pixBody, headers: {}, secret: null, nowMs: NOW_MS });
    expect(result.ok && result.items).toHaveLength(1);
  });

  it('with a secret configured, parses nothing from a body whose signature does not verify', () => {
    const headers = { [PSP_SIGNATURE_HEADER]: sign(pixBody, NOW_S, 'wrong-secret-0123456789') };
    expect(readPixCallback({ rawBody: pixBody, headers, secret: SECRET, nowMs: NOW_MS })).toEqual({
      ok: false,
      reason: 'mismatch',
    });
    expect(readPixCallback({ rawBody: pixBody, headers: {}, secret: SECRET, nowMs: NOW_MS })).toEqual({
      ok: false,
      reason: 'missing',
    });
    const signed = { [PSP_SIGNATURE_HEADER]: sign(pixBody) };
    const result = readPixCallback({ rawBody: pixBody, headers: signed, secret: SECRET, nowMs: NOW_MS });
    expect(result.ok && result.items).toHaveLength(1);
  });
});

describe('parsePayoutCallback', () => {
  it('takes the payout ids to ask about, skipping odd items', () => {
    const body = JSON.stringify({
      payouts: [{ id: 'abcdefghijklmnopqrstuvwxyz012345', status: 'PAGO' }, { id: 7 }],
    });
    expect(parsePayoutCallback(body)).toEqual({
      ok: true,
      skipped: 1,
      items: ['abcdefghijklmnopqrstuvwxyz012345'],
    });
  });
});
