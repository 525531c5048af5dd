import Fastify, { type FastifyInstance } from 'fastify';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { z } from 'zod';
import { registerPages } from './pages.ts';

/** One message as the catcher received it. */
export interface CaughtMessage {
  id: number;
  from: string;
  to: string[];
  subject: string;
  text: string;
  receivedAt: string;
}

export interface MailCatcherOptions {
  /** Loopback by default: the page has no login and shows every message. */
  host?: string;
  /** SMTP port; 0 (default) picks a free one. */
  smtpPort?: number;
  /** Port of the page and its JSON API; 0 picks a free one. */
  httpPort?: number;
  /** Most messages kept; older ones are dropped first. */
  maxMessages?: number;
  logger?: boolean;
}

export interface MailCatcher {
  /** Starts both listeners; resolves to their addresses. */
  listen(): Promise<{ smtpPort: number; url: string }>;
  close(): Promise<void>;
  /** Messages, newest first (optionally only those sent to `to`). */
  messages(to?: string): CaughtMessage[];
  readonly app: FastifyInstance;
}

const MAX_MESSAGE_BYTES = 256 * 1024;

/**
 * A local mail catcher for development and tests: an SMTP server that accepts every message (no
 * relay, nothing leaves the machine) and keeps the last few hundred in memory, plus a page that
 * lists them and a JSON API (`GET /api/messages?to=`) for tests. The casino server sends to it
 * over SMTP exactly as it would to a real mail server.
 */
export function createMailCatcher(options: MailCatcherOptions = {}): MailCatcher {
  const host = options.host ?? '127.0.0.1';
  const maxMessages = options.maxMessages ?? 500;
  const store: CaughtMessage[] = [];
  let nextId = 1;

  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    size: MAX_MESSAGE_BYTES,
    logger: false,
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((parsed) => {
          const to = session.envelope.rcptTo.map((rcpt) => rcpt.address.toLowerCase());
          store.unshift({
            id: nextId++,
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to,
            subject: parsed.subject ?? '',
            text: parsed.text ?? '',
            receivedAt: new Date().toISOString(),
          });
          store.length = Math.min(store.length, maxMessages);
          callback();
        })
        .catch((error: Error) => callback(error));
    },
  });

  const app = Fastify({ logger: options.logger ?? false });
  const messages = (to?: string) => (to ? store.filter((m) => m.to.includes(to.toLowerCase())) : [...store]);
  app.get('/api/messages', async (request) => {
    const query = z.object({ to: z.string().max(254).optional() }).safeParse(request.query);
    return { messages: messages(query.success ? query.data.to : undefined) };
  });
  registerPages(app, { messages, find: (id) => store.find((m) => m.id === id) ?? null });

  let smtpPort = options.smtpPort ?? 0;
  let url = '';
  return {
    app,
    messages,
    async listen() {
      await new Promise<void>((resolve, reject) => {
        smtp.once('error', reject);
        smtp.listen(smtpPort, host, () => {
          smtp.off('error', reject);
          resolve();
        });
      });
      smtpPort = (smtp.server.address() as { port: number }).port;
      url = await app.listen({ host, port: options.httpPort ?? 0 });
      return { smtpPort, url: url.replace('localhost', host) };
    },
    async close() {
      await app.close();
      await new Promise<void>((resolve) => smtp.close(() => resolve()));
    },
  };
}
