import { resolve } from 'node:path';
import { z } from 'zod';
import { createKycSandbox } from './sandbox.ts';

/** Runs the KYC sandbox on its own: `node --import tsx apps/kyc-sandbox/src/main.ts`. */
const Env = z.object({
  KYC_SANDBOX_HOST: z.string().default('127.0.0.1'),
  KYC_SANDBOX_PORT: z.coerce.number().int().min(0).max(65_535).default(4040),
  KYC_SANDBOX_PUBLIC_URL: z.url().optional(),
  KYC_SANDBOX_DATA_DIR: z.string().default('./data/kyc-sandbox'),
  KYC_CLIENT_ID: z.string().min(1).max(200),
  KYC_CLIENT_SECRET: z.string().min(1).max(200),
  KYC_WEBHOOK_SECRET: z.string().min(32).max(200),
});
const parsed = Env.safeParse(process.env);
if (!parsed.success) {
  console.error(
    `KYC sandbox configuration is invalid:\n  ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('\n  ')}`,
  );
  process.exit(1);
}
const env = parsed.data;
const sandbox = createKycSandbox({
  host: env.KYC_SANDBOX_HOST,
  port: env.KYC_SANDBOX_PORT,
  ...(env.KYC_SANDBOX_PUBLIC_URL ? { publicUrl: env.KYC_SANDBOX_PUBLIC_URL } : {}),
  dataDir: resolve(env.KYC_SANDBOX_DATA_DIR),
  clientId: env.KYC_CLIENT_ID,
  clientSecret: env.KYC_CLIENT_SECRET,
  webhookSecret: env.KYC_WEBHOOK_SECRET,
  logger: true,
});
console.log(`KYC provider sandbox at ${await sandbox.listen()}/`);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    sandbox.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
}
