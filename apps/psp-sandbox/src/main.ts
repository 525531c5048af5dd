import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { z } from 'zod';
import { createSandbox } from './sandbox.ts';

/**
 * Runs the sandbox on its own: `node --import tsx apps/psp-sandbox/src/main.ts`.
 * The credentials are the same variables the casino server reads, so both sides agree.
 */
const Env = z.object({
  PSP_SANDBOX_HOST: z.string().default('127.0.0.1'),
  PSP_SANDBOX_PORT: z.coerce.number().int().min(0).max(65_535).default(4010),
  PSP_SANDBOX_DATA_DIR: z.string().default('./data/psp-sandbox'),
  PSP_SANDBOX_PUBLIC_URL: z.url().optional(),
  PSP_SANDBOX_PAYOUT_MODE: z.enum(['manual', 'succeed', 'fail']).default('manual'),
  PSP_SANDBOX_PIX_KEY: z.string().min(1).max(77).optional(),
  PSP_SANDBOX_MERCHANT_NAME: z.string().min(1).max(25).optional(),
  PSP_SANDBOX_MERCHANT_CITY: z.string().min(1).max(15).optional(),
  PSP_CLIENT_ID: z.string().min(1).max(200),
  PSP_CLIENT_SECRET: z.string().min(1).max(200),
  PSP_WEBHOOK_SECRET: z.string().min(16).max(200).optional(),
  /** Strict mode (the standard only, mTLS): needs the three PEM files below. */
  PSP_SANDBOX_STRICT: z.enum(['on', 'off']).default('off'),
  PSP_SANDBOX_CERT_FILE: z.string().min(1).optional(),
  PSP_SANDBOX_KEY_FILE: z.string().min(1).optional(),
  PSP_SANDBOX_CA_FILE: z.string().min(1).optional(),
});

const parsed = Env.safeParse(process.env);
if (!parsed.success) {
  const keys = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
  console.error(`PSP sandbox configuration is invalid:\n  ${keys.join('\n  ')}`);
  process.exit(1);
}
const env = parsed.data;
const strict = env.PSP_SANDBOX_STRICT === 'on';
const tlsFiles = [env.PSP_SANDBOX_CERT_FILE, env.PSP_SANDBOX_KEY_FILE, env.PSP_SANDBOX_CA_FILE];
if (strict && tlsFiles.some((file) => !file)) {
  console.error(
    'PSP_SANDBOX_STRICT=on needs PSP_SANDBOX_CERT_FILE, PSP_SANDBOX_KEY_FILE and PSP_SANDBOX_CA_FILE',
  );
  process.exit(1);
}
if (!strict && !env.PSP_WEBHOOK_SECRET) {
  console.error('PSP_WEBHOOK_SECRET (16+ characters) is required outside strict mode');
  process.exit(1);
}

const sandbox = createSandbox({
  host: env.PSP_SANDBOX_HOST,
  port: env.PSP_SANDBOX_PORT,
  dataDir: resolve(env.PSP_SANDBOX_DATA_DIR),
  clientId: env.PSP_CLIENT_ID,
  clientSecret: env.PSP_CLIENT_SECRET,
  ...(env.PSP_WEBHOOK_SECRET ? { webhookSecret: env.PSP_WEBHOOK_SECRET } : {}),
  ...(strict
    ? {
        strict: true,
        tls: {
          cert: readFileSync(env.PSP_SANDBOX_CERT_FILE!),
          key: readFileSync(env.PSP_SANDBOX_KEY_FILE!),
          ca: readFileSync(env.PSP_SANDBOX_CA_FILE!),
        },
      }
    : {}),
  payoutMode: env.PSP_SANDBOX_PAYOUT_MODE,
  logger: true,
  ...(env.PSP_SANDBOX_PUBLIC_URL ? { publicUrl: env.PSP_SANDBOX_PUBLIC_URL } : {}),
  ...(env.PSP_SANDBOX_PIX_KEY ? { pixKeys: [env.PSP_SANDBOX_PIX_KEY] } : {}),
  ...(env.PSP_SANDBOX_MERCHANT_NAME ? { merchantName: env.PSP_SANDBOX_MERCHANT_NAME } : {}),
  ...(env.PSP_SANDBOX_MERCHANT_CITY ? { merchantCity: env.PSP_SANDBOX_MERCHANT_CITY } : {}),
});

const url = await sandbox.listen();
console.log(`PSP sandbox listening on ${url} (PIX key ${sandbox.pixKey})`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    sandbox.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
}
