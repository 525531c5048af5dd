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
  PSP_WEBHOOK_SECRET: z.string().min(16).max(200),
});

const parsed = Env.safeParse(process.env);
if (!parsed.success) {
  const keys = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
  console.error(`PSP sandbox configuration is invalid:\n  ${keys.join('\n  ')}`);
  process.exit(1);
}
const env = parsed.data;

const sandbox = createSandbox({
  host: env.PSP_SANDBOX_HOST,
  port: env.PSP_SANDBOX_PORT,
  dataDir: resolve(env.PSP_SANDBOX_DATA_DIR),
  clientId: env.PSP_CLIENT_ID,
  clientSecret: env.PSP_CLIENT_SECRET,
  webhookSecret: env.PSP_WEBHOOK_SECRET,
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
