import { describe, expect, it } from 'vitest';
import { batchPayloads, type Change } from './realtime.hub.ts';

describe('batchPayloads', () => {
  const change = (i: number, reason = 'bet'): Change => ({
    siteId: '1',
    memberId: String(1_000_000 + i),
    reason,
    orderNo: i % 3 === 0 ? `DEP${i}` : null,
  });

  it('puts the changes of a turn in as few JSON arrays as fit under 8,000 bytes, in order', () => {
    const changes = Array.from({ length: 500 }, (_, i) => change(i));
    const payloads = batchPayloads(changes);
    expect(payloads.length).toBeGreaterThan(1);
    expect(payloads.length).toBeLessThan(20);
    for (const payload of payloads) expect(Buffer.byteLength(payload)).toBeLessThanOrEqual(7_900);
    expect(payloads.flatMap((p) => JSON.parse(p) as Change[])).toEqual(changes);
  });

  it('sends one small array for a few changes, none for none, and counts bytes not characters', () => {
    expect(batchPayloads([change(1), change(2)])).toEqual([JSON.stringify([change(1), change(2)])]);
    expect(batchPayloads([])).toEqual([]);
    const wide = Array.from({ length: 300 }, (_, i) => change(i, 'ção-ß-€'));
    for (const payload of batchPayloads(wide)) expect(Buffer.byteLength(payload)).toBeLessThanOrEqual(7_900);
  });
});
