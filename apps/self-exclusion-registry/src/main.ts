import { resolve } from 'node:path';
import { z } from 'zod';
import { createRegistry } from './registry.ts';

/** Runs the registry sandbox on its own: `node --import tsx apps/self-exclusion-registry/src/main.ts`. */
const Env = z.object({
  REGISTRY_SANDBOX_HOST: z.string().default('127.0.0.1'),
  REGISTRY_SANDBOX_PORT: z.coerce.number().int().min(0).max(65_535).default(4030),
  REGISTRY_SANDBOX_DATA_DIR: z.string().default('./data/self-exclusion-registry'),
  SELF_EXCLUSION_CLIENT_ID: z.string().min(1).max(200),
  SELF_EXCLUSION_CLIENT_SECRET: z.string().min(1).max(200),
});
const parsed = Env.safeParse(process.env);
if (!parsed.success) {
  console.error(
    `Registry configuration is invalid:\n  ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('\n  ')}`,
  );
  process.exit(1);
}
const env = parsed.data;
const registry = createRegistry({
  host: env.REGISTRY_SANDBOX_HOST,
  port: env.REGISTRY_SANDBOX_PORT,
  dataDir: resolve(env.REGISTRY_SANDBOX_DATA_DIR),
  clientId: env.SELF_EXCLUSION_CLIENT_ID,
  clientSecret: env.SELF_EXCLUSION_CLIENT_SECRET,
  logger: true,
});
console.log(`Self-exclusion registry sandbox at ${await registry.listen()}/`);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    registry.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
}
