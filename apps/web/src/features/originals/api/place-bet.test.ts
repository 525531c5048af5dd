import { describe, expect, it } from 'vitest';
import { setToken } from '../../../lib/storage.ts';
import { mockApi, ok } from '../../../test/api-mock.ts';
import { setDemoToken } from './originals-api.ts';
import { originalsCall, placeBet } from './place-bet.ts';

const answer = { round: { id: '1' }, balance: '10.00' };

describe('in-house game calls', () => {
  it('bet as the demo session with fun money: its token, never the player token, and the key', async () => {
    setToken('player-token');
    setDemoToken('demo-token');
    const { calls } = mockApi({ 'POST /api/originals/dice/bet': () => ({ body: ok(answer) }) });
    await expect(
      placeBet('dice', { amount: '1.00' }, { demo: true, idempotencyKey: 'k-1' }),
    ).resolves.toEqual(answer);
    expect(calls[0]?.headers['X-Demo-Token']).toBe('demo-token');
    expect(calls[0]?.headers.Authorization).toBeUndefined();
    expect(calls[0]?.headers['Idempotency-Key']).toBe('k-1');
    expect(calls[0]?.body).toMatchObject({ amount: '1.00', idempotency_key: 'k-1' });
  });

  it('bet as the logged-in player for real money, and read an active round with a GET', async () => {
    setToken('player-token');
    setDemoToken('demo-token');
    const { calls } = mockApi({
      'POST /api/originals/limbo/bet': () => ({ body: ok(answer) }),
      'GET /api/originals/mines/active': () => ({ body: ok({ round: null }) }),
    });
    await placeBet('limbo', { amount: '2.00' }, { demo: false, idempotencyKey: 'k-2' });
    await originalsCall('mines/active', { demo: false });
    expect(calls[0]?.headers.Authorization).toBe('Bearer player-token');
    expect(calls[0]?.headers['X-Demo-Token']).toBeUndefined();
    expect(calls[1]?.method).toBe('GET');
  });
});
