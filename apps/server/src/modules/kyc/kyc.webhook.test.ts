import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ageOn } from './kyc.service.ts';
import { KYC_REPLAY_WINDOW_MS, readKycWebhook } from './kyc.webhook.ts';

const SECRET = 's'.repeat(40);
const NOW = Date.UTC(2026, 11, 2, 12, 0, 0);
const body = JSON.stringify({
  event_id: 'e1',
  type: 'verification.updated',
  session_id: 'kys_1',
  sequence: 2,
  status: 'approved',
  reason: null,
  pep: false,
  occurred_at: '2026-12-02T12:00:00.000Z',
});
const sign = (raw: string, t: number, secret = SECRET) =>
  `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${raw}`).digest('hex')}`;
const read = (raw: string, signature: string | undefined, nowMs = NOW) =>
  readKycWebhook({ rawBody: Buffer.from(raw), signature, secret: SECRET, nowMs });

describe('the KYC webhook reader', () => {
  it('takes a body signed with the secret over its timestamp and raw bytes', () => {
    const result = read(body, sign(body, NOW / 1000));
    expect(result).toEqual({
      ok: true,
      event: { eventId: 'e1', sessionId: 'kys_1', sequence: 2, status: 'approved', reason: null, pep: false },
    });
  });

  it('refuses a missing or malformed header, another key, and a body changed after signing', () => {
    expect(read(body, undefined)).toEqual({ ok: false, reason: 'missing_signature' });
    expect(read(body, 'v1=abc')).toEqual({ ok: false, reason: 'missing_signature' });
    expect(read(body, sign(body, NOW / 1000, 'x'.repeat(40)))).toEqual({
      ok: false,
      reason: 'bad_signature',
    });
    const changed = body.replace('approved', 'rejected');
    expect(read(changed, sign(body, NOW / 1000))).toEqual({ ok: false, reason: 'bad_signature' });
    // Re-serialised JSON is other bytes: the signature covers what was sent, not what it means.
    expect(read(JSON.stringify(JSON.parse(body), null, 1), sign(body, NOW / 1000))).toMatchObject({
      ok: false,
    });
  });

  it('refuses a timestamp more than 10 minutes from the clock, either way', () => {
    const edge = (NOW - KYC_REPLAY_WINDOW_MS) / 1000;
    expect(read(body, sign(body, edge)).ok).toBe(true);
    expect(read(body, sign(body, edge - 1))).toEqual({ ok: false, reason: 'stale_timestamp' });
    expect(read(body, sign(body, (NOW + KYC_REPLAY_WINDOW_MS) / 1000 + 1))).toEqual({
      ok: false,
      reason: 'stale_timestamp',
    });
  });

  it('refuses a signed body that is not a decision event', () => {
    for (const raw of [
      '{not json',
      JSON.stringify({ event_id: 'e1' }),
      JSON.stringify({ ...JSON.parse(body), status: 'done' }),
    ]) {
      expect(read(raw, sign(raw, NOW / 1000))).toEqual({ ok: false, reason: 'invalid_body' });
    }
  });
});

describe('ageOn', () => {
  it('counts whole years, the birthday itself included', () => {
    const today = new Date(Date.UTC(2026, 11, 2));
    expect(ageOn('2008-12-02', today)).toBe(18);
    expect(ageOn('2008-12-03', today)).toBe(17);
    expect(ageOn('2009-01-01', today)).toBe(17);
    expect(ageOn('1990-05-17', today)).toBe(36);
  });
});
