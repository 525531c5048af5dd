import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { createSandbox } from '@sorte/psp-sandbox';
import { PspClient } from './psp.client.ts';

/**
 * How the server reaches its PSP. With PSP_BASE_URL, PSP_CLIENT_ID, PSP_CLIENT_SECRET and
 * PSP_WEBHOOK_SECRET (and PSP_PIX_KEY, our DICT key there) it talks to that PSP. With none of them
 * it starts the local sandbox as its own loopback HTTP listener and talks to it over HTTP exactly
 * as it would to a bank, with credentials made up for this run. A partial configuration is an
 * error: silently falling back to the sandbox in production would take real deposits nowhere.
 */
export interface PspSettings {
  baseUrl?: string | undefined;
  clientId?: string | undefined;
  clientSecret?: string | undefined;
  webhookSecret?: string | undefined;
  pixKey?: string | undefined;
}

export interface PspConnection {
  client: PspClient;
  /** HMAC key for `readPixWebhook` / `readPayoutWebhook`. */
  webhookSecret: string;
  /** The DICT key to put in charges and to register the webhook on. */
  pixKey: string;
  /** The sandbox's base URL (payer pages at /pay/{txid}), or null for a real PSP. */
  sandboxUrl: string | null;
  /** Where a tester pays a charge (the sandbox payer page); null for a real PSP, where the QR is the way. */
  payerPageUrl(txid: string): string | null;
  close(): Promise<void>;
}

export interface ConnectOptions {
  /** The server's data directory; the sandbox keeps its state in `<dataDir>/psp-sandbox`. */
  dataDir: string;
  /** A fixed port keeps the sandbox's payer links valid across restarts; 0 picks a free one. */
  sandboxPort?: number;
  /** When given, `PUT /webhook/{chave}` is registered right away (deliveries are retried anyway). */
  webhookUrl?: string;
}

export const DEFAULT_SANDBOX_PORT = 4010;

const REQUIRED = ['baseUrl', 'clientId', 'clientSecret', 'webhookSecret', 'pixKey'] as const;
const ENV_NAMES: Record<(typeof REQUIRED)[number], string> = {
  baseUrl: 'PSP_BASE_URL',
  clientId: 'PSP_CLIENT_ID',
  clientSecret: 'PSP_CLIENT_SECRET',
  webhookSecret: 'PSP_WEBHOOK_SECRET',
  pixKey: 'PSP_PIX_KEY',
};

export async function connectPsp(settings: PspSettings, options: ConnectOptions): Promise<PspConnection> {
  const given = REQUIRED.filter((key) => settings[key]);
  if (given.length === REQUIRED.length) {
    const client = new PspClient({
      baseUrl: settings.baseUrl!,
      clientId: settings.clientId!,
      clientSecret: settings.clientSecret!,
    });
    if (options.webhookUrl) await client.registerWebhook(settings.pixKey!, options.webhookUrl);
    return {
      client,
      webhookSecret: settings.webhookSecret!,
      pixKey: settings.pixKey!,
      sandboxUrl: null,
      payerPageUrl: () => null,
      close: async () => undefined,
    };
  }
  if (given.length > 0) {
    const missing = REQUIRED.filter((key) => !settings[key]).map((key) => ENV_NAMES[key]);
    throw new Error(
      `PSP configuration is incomplete; missing ${missing.join(', ')} (or set none to use the sandbox)`,
    );
  }

  const clientId = `sorte-${randomBytes(6).toString('hex')}`;
  const clientSecret = randomBytes(24).toString('base64url');
  const webhookSecret = randomBytes(32).toString('base64url');
  const sandbox = createSandbox({
    dataDir: join(options.dataDir, 'psp-sandbox'),
    port: options.sandboxPort ?? DEFAULT_SANDBOX_PORT,
    clientId,
    clientSecret,
    webhookSecret,
  });
  const url = await sandbox.listen();
  const client = new PspClient({ baseUrl: url, clientId, clientSecret });
  try {
    if (options.webhookUrl) await client.registerWebhook(sandbox.pixKey, options.webhookUrl);
  } catch (error) {
    await sandbox.close();
    throw error;
  }
  return {
    client,
    webhookSecret,
    pixKey: sandbox.pixKey,
    sandboxUrl: url,
    payerPageUrl: (txid) => `${url}/pay/${encodeURIComponent(txid)}`,
    close: () => sandbox.close(),
  };
}
