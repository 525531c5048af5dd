import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createSandbox, type Exchange } from '@sorte/psp-sandbox';
import {
  PAYOUT_SCOPES,
  type PayoutAdapter,
  type PayoutAdapterName,
  payoutAdapter,
} from './payout-adapter.ts';
import { PSP_SCOPES, PspClient, type PspTls } from './psp.client.ts';

/**
 * How the server reaches its PSP. With PSP_BASE_URL (the API Pix base, version path included),
 * PSP_CLIENT_ID, PSP_CLIENT_SECRET, PSP_PIX_KEY (our DICT key there), PSP_PAYOUT_ADAPTER (whose API
 * sends Pix) and a client certificate (PSP_CERT_FILE + PSP_KEY_FILE, or PSP_PFX_FILE) it talks to
 * that PSP over mutual TLS. With none of them it starts the local sandbox as its own loopback
 * listener, with credentials made up for this run. A partial configuration is an error: silently
 * falling back to the sandbox in production would take real deposits nowhere.
 */
export interface PspSettings {
  baseUrl?: string | undefined;
  tokenUrl?: string | undefined;
  clientId?: string | undefined;
  clientSecret?: string | undefined;
  /** Only for a PSP that also signs its callbacks like our sandbox; the standard's do not. */
  webhookSecret?: string | undefined;
  pixKey?: string | undefined;
  payoutAdapter?: PayoutAdapterName | undefined;
  certFile?: string | undefined;
  keyFile?: string | undefined;
  caFile?: string | undefined;
  pfxFile?: string | undefined;
  pfxPassphrase?: string | undefined;
}

export interface PspConnection {
  client: PspClient;
  /** Sends Pix (withdrawals) through the PSP's own API. */
  payouts: PayoutAdapter;
  /** HMAC key of the optional callback signature; null when callbacks come unsigned (the standard). */
  webhookSecret: string | null;
  /** The DICT key to put in charges and to register the webhook on. */
  pixKey: string;
  /** The sandbox's base URL (payer pages at /pay/{txid}), or null for a real PSP. */
  sandboxUrl: string | null;
  /** Where a tester pays a charge (the sandbox payer page); null for a real PSP, where the QR is the way. */
  payerPageUrl(txid: string): string | null;
  close(): Promise<void>;
}

/** The sandbox's strict mode: the standard's behaviour only, behind mTLS with these certificates. */
export interface StrictSandbox {
  server: { cert: string; key: string };
  client: { cert: string; key: string };
  ca: string;
  /** Sees every exchange with the sandbox (tests check the traffic against the standard). */
  onExchange?: (exchange: Exchange) => void;
}

export interface ConnectOptions {
  /** The server's data directory; the sandbox keeps its state in `<dataDir>/psp-sandbox`. */
  dataDir: string;
  /** A fixed port keeps the sandbox's payer links valid across restarts; 0 picks a free one. */
  sandboxPort?: number;
  /** Run the sandbox in strict mode (tests): HTTPS with client certificates, unsigned callbacks. */
  strictSandbox?: StrictSandbox;
  /** When given, `PUT /webhook/{chave}` is registered right away (deliveries are retried anyway). */
  webhookUrl?: string;
}

export const DEFAULT_SANDBOX_PORT = 4010;

/**
 * Where the PSP posts callbacks: PSP_WEBHOOK_URL, else PUBLIC_BASE_URL + /api/psp/webhook. A real
 * PSP reaches us from the internet over TLS, so for one it must be https; only the loopback sandbox
 * may call plain http://127.0.0.1.
 */
export function pspWebhookUrl(input: {
  configured?: string | undefined;
  publicBaseUrl?: string | undefined;
  port: number;
  realPsp: boolean;
}): string {
  const base = input.publicBaseUrl?.replace(/\/+$/, '');
  const url = input.configured ?? (base ? `${base}/api/psp/webhook` : null);
  if (url) {
    if (input.realPsp && !url.startsWith('https://'))
      throw new Error('PSP_WEBHOOK_URL (or PUBLIC_BASE_URL) must be https for a real PSP');
    return url;
  }
  if (input.realPsp) throw new Error('a real PSP needs PUBLIC_BASE_URL (https) or PSP_WEBHOOK_URL');
  return `http://127.0.0.1:${input.port}/api/psp/webhook`;
}

const REQUIRED = ['baseUrl', 'clientId', 'clientSecret', 'pixKey', 'payoutAdapter'] as const;
const ENV_NAMES: Record<keyof PspSettings, string> = {
  baseUrl: 'PSP_BASE_URL',
  tokenUrl: 'PSP_TOKEN_URL',
  clientId: 'PSP_CLIENT_ID',
  clientSecret: 'PSP_CLIENT_SECRET',
  webhookSecret: 'PSP_WEBHOOK_SECRET',
  pixKey: 'PSP_PIX_KEY',
  payoutAdapter: 'PSP_PAYOUT_ADAPTER',
  certFile: 'PSP_CERT_FILE',
  keyFile: 'PSP_KEY_FILE',
  caFile: 'PSP_CA_FILE',
  pfxFile: 'PSP_PFX_FILE',
  pfxPassphrase: 'PSP_PFX_PASSPHRASE',
};

/** The client certificate: PEM cert + key, or a PKCS#12 file; the CA is optional (public roots). */
export function readPspTls(settings: PspSettings): PspTls {
  const pem = settings.certFile && settings.keyFile;
  if (!pem && !settings.pfxFile) {
    throw new Error(
      'PSP configuration needs a client certificate (mTLS): PSP_CERT_FILE and PSP_KEY_FILE, or PSP_PFX_FILE',
    );
  }
  const tls: PspTls = pem
    ? { cert: readFileSync(settings.certFile!), key: readFileSync(settings.keyFile!) }
    : { pfx: readFileSync(settings.pfxFile!) };
  if (settings.pfxPassphrase) tls.passphrase = settings.pfxPassphrase;
  if (settings.caFile) tls.ca = readFileSync(settings.caFile);
  return tls;
}

export async function connectPsp(settings: PspSettings, options: ConnectOptions): Promise<PspConnection> {
  const given = (Object.keys(ENV_NAMES) as (keyof PspSettings)[]).filter((key) => settings[key]);
  if (given.length > 0) {
    const missing = REQUIRED.filter((key) => !settings[key]).map((key) => ENV_NAMES[key]);
    if (missing.length > 0) {
      throw new Error(
        `PSP configuration is incomplete; missing ${missing.join(', ')} (or set none to use the sandbox)`,
      );
    }
    return connectConfigured(settings, options);
  }
  return connectSandbox(options);
}

async function connectConfigured(settings: PspSettings, options: ConnectOptions): Promise<PspConnection> {
  const tls = readPspTls(settings);
  const client = new PspClient({
    baseUrl: settings.baseUrl!,
    ...(settings.tokenUrl ? { tokenUrl: settings.tokenUrl } : {}),
    clientId: settings.clientId!,
    clientSecret: settings.clientSecret!,
    // The adapter's scopes go into the one token every call uses.
    scopes: [...PSP_SCOPES, ...PAYOUT_SCOPES[settings.payoutAdapter!]],
    tls,
  });
  if (options.webhookUrl) await client.registerWebhook(settings.pixKey!, options.webhookUrl);
  return {
    client,
    payouts: payoutAdapter(settings.payoutAdapter!, client, settings.pixKey!),
    webhookSecret: settings.webhookSecret ?? null,
    pixKey: settings.pixKey!,
    sandboxUrl: null,
    payerPageUrl: () => null,
    close: async () => undefined,
  };
}

async function connectSandbox(options: ConnectOptions): Promise<PspConnection> {
  const clientId = `sorte-${randomBytes(6).toString('hex')}`;
  const clientSecret = randomBytes(24).toString('base64url');
  const strict = options.strictSandbox;
  const webhookSecret = strict ? null : randomBytes(32).toString('base64url');
  const sandbox = createSandbox({
    dataDir: join(options.dataDir, 'psp-sandbox'),
    port: options.sandboxPort ?? DEFAULT_SANDBOX_PORT,
    clientId,
    clientSecret,
    ...(webhookSecret ? { webhookSecret } : {}),
    ...(strict ? { strict: true, tls: { ...strict.server, ca: strict.ca } } : {}),
    ...(strict?.onExchange ? { onExchange: strict.onExchange } : {}),
  });
  const url = await sandbox.listen();
  const client = new PspClient({
    baseUrl: sandbox.apiUrl,
    clientId,
    clientSecret,
    ...(strict ? { tls: { ...strict.client, ca: strict.ca } } : {}),
  });
  try {
    if (options.webhookUrl) await client.registerWebhook(sandbox.pixKey, options.webhookUrl);
  } catch (error) {
    await sandbox.close();
    throw error;
  }
  return {
    client,
    payouts: payoutAdapter('sandbox', client, sandbox.pixKey),
    webhookSecret,
    pixKey: sandbox.pixKey,
    sandboxUrl: url,
    payerPageUrl: (txid) => `${url}/pay/${encodeURIComponent(txid)}`,
    close: () => sandbox.close(),
  };
}
