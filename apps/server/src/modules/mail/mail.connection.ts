import { createMailCatcher } from '@sorte/mail-catcher';
import nodemailer, { type Transporter } from 'nodemailer';

/**
 * How the server sends mail. With SMTP_URL (smtp:// or smtps://, credentials in the URL) it sends
 * through that server. Without it, it starts the local mail catcher on loopback and sends to it
 * over SMTP exactly as it would to a real server; the catcher's page shows every message.
 */
export interface MailSettings {
  smtpUrl?: string | undefined;
  from: string;
}

export interface MailConnection {
  transport: Transporter;
  from: string;
  /** The catcher's page, or null with a real SMTP server. */
  catcherUrl: string | null;
  close(): Promise<void>;
}

export const DEFAULT_MAIL_CATCHER_PORT = 4020;

export async function connectMail(
  settings: MailSettings,
  options: { catcherPort?: number } = {},
): Promise<MailConnection> {
  if (settings.smtpUrl) {
    const transport = nodemailer.createTransport(settings.smtpUrl);
    return { transport, from: settings.from, catcherUrl: null, close: async () => transport.close() };
  }
  const catcher = createMailCatcher({ httpPort: options.catcherPort ?? DEFAULT_MAIL_CATCHER_PORT });
  const { smtpPort, url } = await catcher.listen();
  const transport = nodemailer.createTransport({
    host: '127.0.0.1',
    port: smtpPort,
    secure: false,
    ignoreTLS: true,
  });
  return {
    transport,
    from: settings.from,
    catcherUrl: url,
    close: async () => {
      transport.close();
      await catcher.close();
    },
  };
}
