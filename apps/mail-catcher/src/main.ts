import { z } from 'zod';
import { createMailCatcher } from './catcher.ts';

/** Runs the mail catcher on its own: `node --import tsx apps/mail-catcher/src/main.ts`. */
const Env = z.object({
  MAIL_CATCHER_HOST: z.string().default('127.0.0.1'),
  MAIL_CATCHER_SMTP_PORT: z.coerce.number().int().min(0).max(65_535).default(2525),
  MAIL_CATCHER_PORT: z.coerce.number().int().min(0).max(65_535).default(4020),
});
const parsed = Env.safeParse(process.env);
if (!parsed.success) {
  console.error(
    `Mail catcher configuration is invalid:\n  ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('\n  ')}`,
  );
  process.exit(1);
}
const catcher = createMailCatcher({
  host: parsed.data.MAIL_CATCHER_HOST,
  smtpPort: parsed.data.MAIL_CATCHER_SMTP_PORT,
  httpPort: parsed.data.MAIL_CATCHER_PORT,
  logger: true,
});
const { smtpPort, url } = await catcher.listen();
console.log(`Mail catcher: SMTP on port ${smtpPort}, messages at ${url}/`);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    catcher.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
}
