import { describe, expect, it } from 'vitest';
import { LateBound } from './late-bound.ts';

describe('a late-bound connection (the PSP, the game aggregator)', () => {
  it('refuses with its own error until attached, answers the connection once attached, closes it once', async () => {
    let closed = 0;
    const connection = { origin: 'http://127.0.0.1:4100', close: async () => void closed++ };
    const psp = new LateBound<typeof connection>('PAYMENT_SERVICE_UNAVAILABLE');
    const aggregator = new LateBound<typeof connection>('PROVIDER_UNAVAILABLE');
    expect(() => psp.connection()).toThrow(expect.objectContaining({ code: 'PAYMENT_SERVICE_UNAVAILABLE' }));
    expect(() => aggregator.connection()).toThrow(expect.objectContaining({ code: 'PROVIDER_UNAVAILABLE' }));
    aggregator.attach(connection);
    expect(aggregator.connection()).toBe(connection);
    expect(aggregator.attached).toBe(connection);
    await aggregator.close();
    await aggregator.close();
    expect(closed).toBe(1);
    expect(aggregator.attached).toBeNull();
    expect(() => aggregator.connection()).toThrow(expect.objectContaining({ code: 'PROVIDER_UNAVAILABLE' }));
  });
});
