import { describe, expect, it } from 'vitest';
import { SubmitKey } from './submit-key.ts';

describe('the Idempotency-Key of a money form', () => {
  let drawn = 0;
  const keys = () => new SubmitKey(() => `key-${++drawn}`);

  it('repeats the key for the same fields until an answer comes (double tap, lost answer)', () => {
    const key = keys();
    const first = key.for({ money: '10.00', card: '1' });
    expect(key.for({ money: '10.00', card: '1' })).toBe(first);
  });

  it('draws a new key when the fields change, so the server never sees one key with two bodies', () => {
    const key = keys();
    const first = key.for({ money: '10.00' });
    expect(key.for({ money: '20.00' })).not.toBe(first);
  });

  it('draws a new key after a success, so a second identical withdrawal is a second order', () => {
    const key = keys();
    const first = key.for({ money: '10.00' });
    key.done();
    expect(key.for({ money: '10.00' })).not.toBe(first);
  });
});
