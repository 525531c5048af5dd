import { describe, expect, it } from 'vitest';
import { chooseReadHost, PROBE_FRESH_MS, type THostHealth } from './replica.ts';

const NOW = 1_000_000;
const host = (name: string, health: Partial<THostHealth>): THostHealth => ({
  endpoint: { host: name, port: 5432 },
  answeredAt: NOW - 100,
  standby: true,
  lagS: 0,
  ...health,
});

describe('chooseReadHost', () => {
  it('takes the first standby within the lag limit, in the order of the URL', () => {
    const hosts = [host('a', { lagS: 7 }), host('b', { lagS: 0.2 }), host('c', {})];
    expect(chooseReadHost(hosts, 5, NOW)).toBe(1);
  });

  it('prefers a current standby to a primary listed before it', () => {
    const hosts = [host('a', { standby: false }), host('b', {})];
    expect(chooseReadHost(hosts, 5, NOW)).toBe(1);
  });

  it('takes a listed primary when no standby keeps up', () => {
    const hosts = [host('a', { lagS: 30 }), host('b', { standby: false })];
    expect(chooseReadHost(hosts, 5, NOW)).toBe(1);
  });

  it('sends reads to the primary when every host lags, never answered, or stopped answering', () => {
    const hosts = [
      host('a', { lagS: 5.01 }),
      host('b', { answeredAt: 0 }),
      host('c', { answeredAt: NOW - PROBE_FRESH_MS - 1 }),
    ];
    expect(chooseReadHost(hosts, 5, NOW)).toBe(-1);
    expect(chooseReadHost([], 5, NOW)).toBe(-1);
  });
});
