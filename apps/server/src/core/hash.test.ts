import { describe, expect, it } from 'vitest';
import { sha256Hex, sha256OfJson } from './hash.ts';

/**
 * Request hashes are stored with what they asked for and compared when the key is used again, so
 * they must hash as the copies each module had before did (the values below are theirs).
 */
describe('the request and token hashes', () => {
  it('sha256Hex is SHA-256 as lowercase hex (FIPS 180-2 "abc")', () => {
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it.each([
    // originals: game, stake and parameters
    [
      { game: 'dice', stake: '100', params: { target: 50.5, over: true } },
      'a58ca91165ed64a57a509d12a059c403a17f9930f7808fbd8ea675d4363595b6',
    ],
    // providers: the call's parts in order
    [
      ['bet', '7', 'sorte-slots', 'r-1', '1.50', 'BRL', false],
      '23066d764072005385935d75af4103cbf5a9a30faa64813211f9abf6e466fe4d',
    ],
    // withdrawals: every field as text
    [['15000', '3', 'saque', ''], '2df6d840fb9aeacfb888ce3ef55a62a8dfec1203eae167977532fe6f219304d0'],
    // crash: stake, auto cash-out and an explicit client seed
    [
      { stake: '100', auto: null, client_seed: 'abc' },
      '51ed3ab1e415f4705eb68c022294fc440ee66ac299cc62ba8ee7e8dd289a30a6',
    ],
  ])('sha256OfJson hashes the fields in the order written (%#)', (fields, hash) => {
    expect(sha256OfJson(fields)).toBe(hash);
  });

  it('does not sort keys: the order a caller writes is part of the request it promised', () => {
    expect(sha256OfJson({ a: 1, b: 2 })).not.toBe(sha256OfJson({ b: 2, a: 1 }));
  });
});
