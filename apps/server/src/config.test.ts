import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

describe('loadConfig', () => {
  it('has safe defaults for a local demo', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      PORT: 3000,
      DATA_DIR: './data',
      CAPTCHA: true,
      LOG_LEVEL: 'info',
      SEED_DEMO: true,
    });
    expect(config.DATABASE_URL).toBeUndefined();
  });

  it('reads CAPTCHA=off, a port and a PostgreSQL URL; blank values count as unset', () => {
    const config = loadConfig({
      CAPTCHA: 'off',
      PORT: '3100',
      DATABASE_URL: 'postgres://u:p@db:5432/sorte',
      HOST: ' ',
    });
    expect(config).toMatchObject({
      CAPTCHA: false,
      PORT: 3100,
      DATABASE_URL: 'postgres://u:p@db:5432/sorte',
    });
    expect(config.HOST).toBe('localhost');
  });

  it('reads the PostgreSQL pool size, 20 unless set, and refuses one below 2', () => {
    expect(loadConfig({}).DATABASE_POOL_MAX).toBe(20);
    expect(loadConfig({ DATABASE_POOL_MAX: '8' }).DATABASE_POOL_MAX).toBe(8);
    expect(() => loadConfig({ DATABASE_POOL_MAX: '1' })).toThrow(/DATABASE_POOL_MAX/);
  });

  it('reads a transaction-mode pooler only with its server and a direct URL for the session connections', () => {
    expect(loadConfig({}).DATABASE_POOLER).toBe('none');
    const pooled = {
      DATABASE_URL: 'postgres://u:p@pgbouncer:6432/sorte',
      DATABASE_POOLER: 'pgbouncer',
      DATABASE_DIRECT_URL: 'postgres://u:p@db:5432/sorte',
    };
    expect(loadConfig(pooled)).toMatchObject(pooled);
    expect(() => loadConfig({ ...pooled, DATABASE_DIRECT_URL: '' })).toThrow(/DATABASE_DIRECT_URL: required/);
    expect(() => loadConfig({ ...pooled, DATABASE_URL: undefined })).toThrow(/DATABASE_URL: required/);
    expect(() => loadConfig({ ...pooled, DATABASE_POOLER: 'odyssey' })).toThrow(/DATABASE_POOLER/);
  });

  it('reads read replicas only beside a PostgreSQL server, with a lag limit of 5 s unless set', () => {
    const read = {
      DATABASE_URL: 'postgres://u:p@db1:5432,db2:5432/sorte?target_session_attrs=read-write',
      DATABASE_READ_URL: 'postgres://u:p@db2:5432,db3:5432/sorte',
    };
    expect(loadConfig(read)).toMatchObject({ ...read, DATABASE_READ_MAX_LAG_S: 5 });
    expect(loadConfig({ ...read, DATABASE_READ_MAX_LAG_S: '2.5' }).DATABASE_READ_MAX_LAG_S).toBe(2.5);
    expect(() => loadConfig({ ...read, DATABASE_READ_MAX_LAG_S: '0' })).toThrow(/DATABASE_READ_MAX_LAG_S/);
    expect(() => loadConfig({ DATABASE_READ_URL: read.DATABASE_READ_URL })).toThrow(
      /DATABASE_READ_URL: needs DATABASE_URL/,
    );
    expect(() => loadConfig({ ...read, DATABASE_READ_URL: 'mysql://x' })).toThrow(/DATABASE_READ_URL/);
  });

  it('names every bad variable', () => {
    const attempt = () => loadConfig({ PORT: 'eighty', CAPTCHA: 'maybe', DATABASE_URL: 'mysql://x' });
    expect(attempt).toThrow(ConfigError);
    try {
      attempt();
    } catch (error) {
      const message = (error as Error).message;
      expect(message).toContain('PORT');
      expect(message).toContain('CAPTCHA');
      expect(message).toContain('DATABASE_URL');
    }
  });
});
