import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSandbox, createTestPki } from '@sorte/psp-sandbox';
import { describe, expect, it } from 'vitest';
import { createTxid } from './psp.client.ts';
import { connectPsp, pspWebhookUrl } from './psp.connection.ts';

describe('connectPsp', () => {
  it('starts the local sandbox when no PSP is configured and talks to it over HTTP', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'psp-connection-'));
    const connection = await connectPsp(
      {},
      { dataDir, sandboxPort: 0, webhookUrl: 'http://127.0.0.1:9/api/psp' },
    );
    try {
      expect(connection.sandboxUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(connection.webhookSecret!.length).toBeGreaterThanOrEqual(32);
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
      connectPsp({ baseUrl: 'https://psp.example.com/api/v2', clientId: 'x' }, { dataDir: tmpdir() }),
    ).rejects.toThrow(/PSP_CLIENT_SECRET, PSP_PIX_KEY, PSP_PAYOUT_ADAPTER/);
  });

  it('refuses a configured PSP without a client certificate (API Pix PSPs require mTLS)', async () => {
    await expect(
      connectPsp(
        {
          baseUrl: 'https://psp.example.com/api/v2',
          clientId: 'id',
          clientSecret: 'secret',
          pixKey: 'pix@example.com',
          payoutAdapter: 'efi',
        },
        { dataDir: tmpdir() },
      ),
    ).rejects.toThrow(/PSP_CERT_FILE and PSP_KEY_FILE, or PSP_PFX_FILE/);
  });

  it('talks to a configured PSP over mutual TLS from the certificate files: token, webhook at start, charges', async () => {
    const pki = createTestPki();
    const dataDir = mkdtempSync(join(tmpdir(), 'psp-connection-mtls-'));
    const sandbox = createSandbox({
      dataDir,
      clientId: 'mtls-client',
      clientSecret: 'mtls-secret',
      strict: true,
      tls: { ...pki.server, ca: pki.ca },
    });
    await sandbox.listen();
    const settings = {
      baseUrl: sandbox.apiUrl,
      clientId: 'mtls-client',
      clientSecret: 'mtls-secret',
      pixKey: sandbox.pixKey,
      payoutAdapter: 'sandbox' as const,
      certFile: pki.client.certFile,
      keyFile: pki.client.keyFile,
      caFile: pki.caFile,
    };
    try {
      const connection = await connectPsp(settings, {
        dataDir,
        webhookUrl: 'https://casino.example.com/api/psp/webhook',
      });
      expect(connection.sandboxUrl).toBeNull();
      expect(connection.webhookSecret).toBeNull();
      const charge = await connection.client.createCharge({
        txid: createTxid(),
        amountMinor: 1_000n,
        expiresInSeconds: 60,
        pixKey: sandbox.pixKey,
      });
      expect(charge.location).toContain('/qr/v2/');
      // A certificate the PSP's CA did not sign: the handshake fails, so does the start.
      await expect(
        connectPsp(
          { ...settings, certFile: pki.stranger.certFile, keyFile: pki.stranger.keyFile },
          { dataDir, webhookUrl: 'https://casino.example.com/api/psp/webhook' },
        ),
      ).rejects.toMatchObject({ code: 'PSP_UNAVAILABLE' });
    } finally {
      await sandbox.close();
      rmSync(dataDir, { recursive: true, force: true });
      pki.remove();
    }
  });
});

describe('pspWebhookUrl', () => {
  it('builds the callback URL from the public base URL, and requires https for a real PSP', () => {
    expect(pspWebhookUrl({ publicBaseUrl: 'https://sorte.example/', port: 3000, realPsp: true })).toBe(
      'https://sorte.example/api/psp/webhook',
    );
    expect(pspWebhookUrl({ port: 3000, realPsp: false })).toBe('http://127.0.0.1:3000/api/psp/webhook');
    expect(() => pspWebhookUrl({ port: 3000, realPsp: true })).toThrow(/PUBLIC_BASE_URL/);
    expect(() =>
      pspWebhookUrl({ configured: 'http://sorte.example/hook', port: 3000, realPsp: true }),
    ).toThrow(/https/);
  });
});
