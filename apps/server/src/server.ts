import { resolve } from 'node:path';
import closeWithGrace from 'close-with-grace';
import { buildApp } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';
import { openDatabase } from './db/client.ts';
import { migrate } from './db/migrate.ts';
import { issueOwnerSetupLinks } from './modules/admin/bootstrap.ts';
import { connectKyc, kycWebhookUrl } from './modules/kyc/kyc.connection.ts';
import { connectMail } from './modules/mail/mail.connection.ts';
import { connectPsp, pspWebhookUrl } from './modules/payments/psp/psp.connection.ts';
import { connectAggregator } from './modules/providers/aggregator.connection.ts';
import { connectRegistry } from './modules/responsible-gaming/registry.connection.ts';
import { seedDemoData } from './seed/demo-data.ts';

/**
 * The process entry: configuration, database (PostgreSQL via DATABASE_URL, else PGlite under
 * DATA_DIR), migrations, demo seed, then listen. SIGINT/SIGTERM drain (SHUTDOWN_DRAIN_SECONDS of
 * not-ready while still serving), then close the server and the database gracefully (in-flight
 * requests finish) within 10 seconds more.
 */
async function main(): Promise<void> {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(78); // EX_CONFIG
    }
    throw error;
  }

  const database = config.DATABASE_URL
    ? await openDatabase({
        kind: 'postgres',
        url: config.DATABASE_URL,
        poolMax: config.DATABASE_POOL_MAX,
        pooler: config.DATABASE_POOLER,
        directUrl: config.DATABASE_DIRECT_URL,
        readUrl: config.DATABASE_READ_URL,
        readMaxLagS: config.DATABASE_READ_MAX_LAG_S,
      })
    : await openDatabase({ kind: 'pglite', dataDir: resolve(config.DATA_DIR) });
  const applied = await migrate(database);
  if (config.SEED_DEMO) await seedDemoData(database.db);

  const app = await buildApp({ config, database });
  app.log.info(
    { database: database.kind, migrations: applied, seeded: config.SEED_DEMO, captcha: config.CAPTCHA },
    'database ready',
  );

  const drainMs = config.SHUTDOWN_DRAIN_SECONDS * 1000;
  closeWithGrace({ delay: drainMs + 10_000 }, async ({ signal, err }) => {
    if (err) app.log.error({ err }, 'closing after an uncaught error');
    else app.log.info({ signal, drainSeconds: config.SHUTDOWN_DRAIN_SECONDS }, 'shutting down');
    // Behind a load balancer: say not-ready first and keep serving until it has noticed, so no
    // request is sent to a connection this process is about to close.
    if (!err && drainMs > 0) {
      app.beginDrain();
      await new Promise((resolve) => setTimeout(resolve, drainMs));
    }
    await app.close();
    await app.psp.close();
    await app.aggregator.close();
    await app.registry.close();
    await app.kyc.close();
    await database.close();
  });

  await app.listen({ port: config.PORT, host: config.HOST });
  const port = (app.server.address() as { port: number } | null)?.port ?? config.PORT;
  // The PSP (or the local sandbox when none is configured) calls this server back, so it is
  // connected once the port is known; until then deposits answer PAYMENT_SERVICE_UNAVAILABLE.
  const pspSettings = {
    baseUrl: config.PSP_BASE_URL,
    tokenUrl: config.PSP_TOKEN_URL,
    clientId: config.PSP_CLIENT_ID,
    clientSecret: config.PSP_CLIENT_SECRET,
    webhookSecret: config.PSP_WEBHOOK_SECRET,
    pixKey: config.PSP_PIX_KEY,
    payoutAdapter: config.PSP_PAYOUT_ADAPTER,
    certFile: config.PSP_CERT_FILE,
    keyFile: config.PSP_KEY_FILE,
    caFile: config.PSP_CA_FILE,
    pfxFile: config.PSP_PFX_FILE,
    pfxPassphrase: config.PSP_PFX_PASSPHRASE,
  };
  const psp = await connectPsp(pspSettings, {
    dataDir: resolve(config.DATA_DIR),
    sandboxPort: config.PSP_SANDBOX_PORT,
    webhookUrl: pspWebhookUrl({
      configured: config.PSP_WEBHOOK_URL,
      publicBaseUrl: config.PUBLIC_BASE_URL,
      port,
      realPsp: config.PSP_BASE_URL !== undefined,
    }),
  });
  app.psp.attach(psp);
  // Third-party games: the aggregator calls our wallet back on this port too.
  const aggregator = await connectAggregator(
    { id: config.AGGREGATOR_ID, baseUrl: config.AGGREGATOR_BASE_URL, secret: config.AGGREGATOR_SECRET },
    {
      walletUrl:
        config.AGGREGATOR_WALLET_URL ??
        `http://127.0.0.1:${port}/api/providers/${config.AGGREGATOR_ID}/wallet`,
      sandboxPort: config.AGGREGATOR_SANDBOX_PORT,
      // Players' browsers load its game pages: it listens where the server does (unless loopback).
      sandboxHost: config.HOST === 'localhost' ? undefined : config.HOST,
      sandboxPublicUrl: config.AGGREGATOR_SANDBOX_PUBLIC_URL,
    },
  );
  app.aggregator.attach(aggregator);
  // Mail: a real SMTP server when configured, else the local mail catcher on loopback.
  const mail = await connectMail(
    { smtpUrl: config.SMTP_URL, from: config.MAIL_FROM },
    { catcherPort: config.MAIL_CATCHER_PORT },
  );
  app.mail.attach(mail);
  // The self-exclusion registry: the configured one, else the local sandbox (its page adds a CPF).
  const registry = await connectRegistry(
    {
      baseUrl: config.SELF_EXCLUSION_REGISTRY_URL,
      clientId: config.SELF_EXCLUSION_CLIENT_ID,
      clientSecret: config.SELF_EXCLUSION_CLIENT_SECRET,
    },
    { dataDir: resolve(config.DATA_DIR), sandboxPort: config.REGISTRY_SANDBOX_PORT },
  );
  app.registry.attach(registry);
  // Identity verification: the configured KYC provider, else the local sandbox (its page decides).
  // A real provider's documents are people's faces: their key must come from the environment.
  if (config.KYC_BASE_URL && !config.KYC_DOCUMENT_KEY)
    throw new Error(
      'a real KYC provider needs KYC_DOCUMENT_KEY (32 bytes, hex or base64) to store documents',
    );
  const kyc = await connectKyc(
    {
      baseUrl: config.KYC_BASE_URL,
      clientId: config.KYC_CLIENT_ID,
      clientSecret: config.KYC_CLIENT_SECRET,
      webhookSecret: config.KYC_WEBHOOK_SECRET,
    },
    {
      dataDir: resolve(config.DATA_DIR),
      sandboxPort: config.KYC_SANDBOX_PORT,
      sandboxWebhookSecret: config.KYC_SANDBOX_WEBHOOK_SECRET,
    },
  );
  app.kyc.attach(
    kyc,
    kycWebhookUrl({
      configured: config.KYC_WEBHOOK_URL,
      publicBaseUrl: config.PUBLIC_BASE_URL,
      port,
      realProvider: config.KYC_BASE_URL !== undefined,
    }),
  );
  const lines = [
    `Sorte is running (${database.kind}${database.kind === 'pglite' ? ` in ${resolve(config.DATA_DIR)}, fsync on` : ''}${config.DATABASE_POOLER === 'pgbouncer' ? ', through PgBouncer in transaction mode' : ''}${config.DATABASE_READ_URL ? `, records and reports from read replicas lagging at most ${config.DATABASE_READ_MAX_LAG_S} s` : ''})`,
    `  player site:      http://localhost:${port}/`,
    `  second demo site: http://br.localhost:${port}/`,
    `  API docs:         http://localhost:${port}/api/docs`,
    `  back office:      http://localhost:${port}/admin`,
    `  captcha:          ${config.CAPTCHA ? 'on' : 'off (CAPTCHA=off)'}`,
    `  PSP:              ${psp.sandboxUrl ? `sandbox at ${psp.sandboxUrl}/ (payer pages /pay/<txid>)` : config.PSP_BASE_URL}`,
    `  game aggregator:  ${aggregator.sandboxUrl ? `demo aggregator at ${aggregator.sandboxUrl}/` : config.AGGREGATOR_BASE_URL}`,
    `  self-exclusion:   ${registry.sandboxUrl ? `registry sandbox at ${registry.sandboxUrl}/ (add a CPF to block it)` : config.SELF_EXCLUSION_REGISTRY_URL}`,
    `  KYC:              ${kyc.sandboxUrl ? `KYC sandbox at ${kyc.sandboxUrl}/ (decide each verification)` : config.KYC_BASE_URL}`,
    `  mail:             ${mail.catcherUrl ? `mail catcher at ${mail.catcherUrl}/ (every message the server sends)` : 'SMTP_URL'}`,
  ];
  // A site without any operator (a fresh production database): a one-time link for its first owner.
  for (const link of await issueOwnerSetupLinks(database.db)) {
    lines.push(
      `  back office setup for site ${link.siteCode} (one-time, 24 h; then sign in at /admin):`,
      `    http://${link.host ?? 'localhost'}:${port}/admin/setup?token=${link.token}`,
    );
  }
  console.log(lines.join('\n'));
}

main().catch((error: unknown) => {
  console.error('Sorte failed to start:', error);
  process.exit(1);
});
