import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createTxid } from './psp.client.ts';
import { connectPsp } from './psp.connection.ts';

describe('connectPsp', () => {
  it('starts the local sandbox when no PSP is configured and talks to it over HTTP', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'psp-connection-'));
    const connection = await connectPsp(
      {},
      { dataDir, sandboxPort: 0, webhookUrl: 'http://127.0.0.1:9/api/psp' },
    );
    try {
      expect(connection.sandboxUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(connection.webhookSecret.length).toBeGreaterThanOrEqual(32);
      const charge = await connection.client.createCharge({
        txid: createTxid(),
        amountMinor: 2_500n,
        expiresInSeconds: 600,
        pixKey: connection.pixKey,
      });
      expect(charge).toMatchObject({ status: 'ATIVA', amountMinor: 2_500n });
      const page = await fetch(connection.payerPageUrl(charge.txid)!);
      expect(page.status).toBe(200);
    } finally {
      await connection.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('refuses a partial configuration and names what is missing', async () => {
    await expect(
      connectPsp({ baseUrl: 'https://psp.example.com', clientId: 'x' }, { dataDir: tmpdir() }),
    ).rejects.toThrow(/PSP_CLIENT_SECRET, PSP_WEBHOOK_SECRET, PSP_PIX_KEY/);
  });

  it('uses a configured PSP without starting anything', async () => {
    const connection = await connectPsp(
      {
        baseUrl: 'https://psp.example.com',
        clientId: 'id',
        clientSecret: 'secret',
        webhookSecret: 'webhook-secret-0123456789',
        pixKey: 'pix@example.com',
      },
      { dataDir: tmpdir() },
    );
    expect(connection.sandboxUrl).toBeNull();
    expect(connection.pixKey).toBe('pix@example.com');
    expect(connection.payerPageUrl('abc')).toBeNull();
    await connection.close();
  });
});
